package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/gen"
	prt "github.com/pipegen/pipegen/runtime"
	"github.com/pipegen/pipegen/spec"
)

// pipegenModule is the module path of pipegen, which the generated program
// requires and replaces by the runtime copy written next to it.
const pipegenModule = "github.com/pipegen/pipegen"

func buildCommand() *cli.Command {
	return &cli.Command{
		Name:      "build",
		Usage:     "compile a spec into a standalone program",
		ArgsUsage: "FILE",
		Description: "Checks the spec, generates the Go program that runs it, writes it as a Go module next to\n" +
			"a copy of this pipegen's runtime, and runs `go build`. Works offline: only modules already in\n" +
			"the module cache are used (GOPROXY=off, GOFLAGS=-mod=mod). Programs are cached by content (the\n" +
			"generated code and this pipegen's version) in $PIPEGEN_CACHE (default: the user cache), as\n" +
			"`pipegen run` caches them.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "o", Usage: "write the program to `BIN` (default: the pipeline's name in the current folder)"},
			&cli.StringFlag{Name: "emit", Usage: "also keep the generated module in `DIR` (created or replaced)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("build: give one spec file")
			}
			return exitError{Build(c.App.ErrWriter, c.Args().First(), c.String("o"), c.String("emit"))}
		},
	}
}

// Build compiles the spec at file into the program out (default: the
// pipeline's name in the working directory), keeping the generated module in
// emit when it is not empty. The program comes from the build cache when
// the same program was built before (see cachedBuild). Diagnostics and
// build errors go to stderr. It returns the exit code: 0, or 1 when the
// spec is invalid or the build fails.
func Build(stderr io.Writer, file, out, emit string) int {
	p, files, ok := generate(stderr, file)
	if !ok {
		return exitDiagnostics
	}
	if out == "" {
		out = p.Name
	}
	if emit != "" {
		err := os.RemoveAll(emit)
		if err == nil {
			err = writeModule(emit, p, files)
		}
		if err != nil {
			fmt.Fprintf(stderr, "pipegen: build: %v\n", err)
			return exitDiagnostics
		}
	}
	bin, code := buildInCache(stderr, file, p, files)
	if code != exitOK {
		return code
	}
	if err := copyExecutable(bin, out); err != nil {
		fmt.Fprintf(stderr, "pipegen: build: %v\n", err)
		return exitDiagnostics
	}
	return exitOK
}

// copyExecutable copies the program bin to out, replacing out at once (a
// temporary file renamed into place) so a running copy is never torn.
func copyExecutable(bin, out string) error {
	data, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o755)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), out)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// generate checks the spec and generates its program, printing
// diagnostics. ok is false when there were errors.
func generate(stderr io.Writer, file string) (*spec.Pipeline, map[string][]byte, bool) {
	p, files, diags, err := loadAndGenerate(file)
	cwd, _ := os.Getwd()
	diags.Write(stderr, spec.TextOutput, cwd)
	if err != nil {
		fmt.Fprintf(stderr, "pipegen: generate %s: %v\n", file, err)
	}
	if p == nil || diags.HasErrors() || err != nil {
		return nil, nil, false
	}
	return p, files, true
}

// loadAndGenerate loads and checks a spec and, when it is valid,
// generates its program, so that validate reports what the code generator
// cannot compile as a diagnostic at the construct's position, as build
// does. err is an internal failure of the generator.
func loadAndGenerate(file string) (*spec.Pipeline, map[string][]byte, spec.Diagnostics, error) {
	p, diags := spec.Load(file)
	if p == nil || diags.HasErrors() {
		return p, nil, diags, nil
	}
	files, err := gen.Generate(p, gen.Options{Version: prt.Version})
	var ue *gen.UnsupportedError
	if errors.As(err, &ue) {
		return p, nil, append(diags, unsupportedDiagnostic(p, ue)), nil
	}
	return p, files, diags, err
}

// unsupportedDiagnostic places a construct the code generator cannot
// compile in the spec: at its offset in the flow's query, or at the flow.
func unsupportedDiagnostic(p *spec.Pipeline, ue *gen.UnsupportedError) spec.Diagnostic {
	d := spec.Diagnostic{Severity: spec.Error, Code: "UNSUPPORTED_FEATURE",
		Message: fmt.Sprintf("%s: %s is not supported yet", ue.Where, ue.What),
		Hint:    "rewrite the query without it, or compute it in another dataset; docs/sql.md lists what compiles"}
	if ue.Internal != "" {
		d.Code, d.Message = "INTERNAL_ERROR", ue.Error()
		d.Hint = "rewrite the query, or compute part of it in another dataset"
	}
	for _, f := range p.Flows {
		if f.Name == ue.Flow {
			d.Pos = f.SQLPos(ue.Pos)
			return d
		}
	}
	d.Pos = spec.Pos{File: p.File}
	return d
}

// writeModule writes the generated program as a Go module in dir: the
// generated files, a go.mod that requires pipegen and replaces it by
// ./pipegen, and there a copy of this pipegen's runtime with a go.mod
// listing the module versions this pipegen was built with.
func writeModule(dir string, p *spec.Pipeline, files map[string][]byte) error {
	write := func(rel string, data []byte) error {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, data, 0o644)
	}
	for name, data := range files {
		if err := write(name, data); err != nil {
			return err
		}
	}
	mod := fmt.Sprintf("module pipegen.generated/%s\n\ngo 1.26\n\nrequire %s v0.0.0\n\nreplace %s => ./pipegen\n",
		modName(p.Name), pipegenModule, pipegenModule)
	if err := write("go.mod", []byte(mod)); err != nil {
		return err
	}
	if err := write("pipegen/go.mod", runtimeGoMod()); err != nil {
		return err
	}
	return prt.WalkCode(func(path string, data []byte) error {
		return write("pipegen/runtime/"+path, data)
	})
}

// modName turns a pipeline name into a module path element.
func modName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "pipeline"
	}
	return b.String()
}

// runtimeGoMod is the go.mod of the runtime copy: pipegen's module with
// the dependency versions this binary was built with.
func runtimeGoMod() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "module %s\n\ngo 1.26\n", pipegenModule)
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b.Bytes()
	}
	var reqs []string
	for _, d := range info.Deps {
		m := d
		if d.Replace != nil {
			m = d.Replace
		}
		if d.Path == pipegenModule || m.Version == "" || m.Version == "(devel)" {
			continue
		}
		reqs = append(reqs, fmt.Sprintf("\t%s %s", d.Path, m.Version))
	}
	sort.Strings(reqs)
	if len(reqs) > 0 {
		fmt.Fprintf(&b, "\nrequire (\n%s\n)\n", strings.Join(reqs, "\n"))
	}
	return b.Bytes()
}

// buildFlags are goBuild's flags; they are part of the build key.
var buildFlags = []string{"-trimpath", "-ldflags=-s -w"}

// goBuild tidies the module in dir (offline: modules come from the module
// cache) and builds it into out: a static program without the symbol
// table and DWARF (-s -w: a third smaller and faster to link; panics still
// print function names and lines), reproducible (-trimpath).
func goBuild(dir, out string) error {
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "CGO_ENABLED=0")
	for _, args := range [][]string{
		{"mod", "tidy"},
		append(append([]string{"build"}, buildFlags...), "-o", out, "."),
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = env
		var msg bytes.Buffer
		cmd.Stdout, cmd.Stderr = &msg, &msg
		if err := cmd.Run(); err != nil {
			hint := ""
			if strings.Contains(msg.String(), "GOPROXY=off") {
				hint = "\n  a module is missing from the module cache: run `go mod download` in the pipegen source (or build pipegen with network access) and retry"
			}
			return fmt.Errorf("go %s: %v\n%s%s", strings.Join(args, " "), err, strings.TrimSpace(msg.String()), hint)
		}
	}
	return nil
}

// buildKey identifies a program by what goes into it: the generated files,
// this pipegen's version, runtime and build flags.
func buildKey(files map[string][]byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", prt.Version, strings.Join(buildFlags, " "))
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(files[n]))
		h.Write(files[n])
	}
	prt.WalkCode(func(path string, data []byte) error {
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(data))
		h.Write(data)
		return nil
	})
	h.Write(runtimeGoMod())
	return hex.EncodeToString(h.Sum(nil))[:24]
}
