package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/gen"
	prt "github.com/pipegen/pipegen/runtime"
	"github.com/pipegen/pipegen/spec"
	"github.com/pipegen/pipegen/spec/sql"
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
			"a copy of this pipegen's runtime, and runs `go build` with the module versions and checksums\n" +
			"this pipegen was built with. Modules missing from the Go module cache are downloaded as by any\n" +
			"go build (GOPROXY, GOFLAGS, GOPRIVATE, ... are respected); with --offline only the module cache\n" +
			"is used, which holds everything needed once pipegen itself was built or installed here.\n" +
			"Programs are cached by content (the generated code and this pipegen's version) in\n" +
			"$PIPEGEN_CACHE (default: the user cache folder), as `pipegen run` caches them.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "o", Usage: "write the program to `BIN` (default: the pipeline's name in the current folder)"},
			&cli.StringFlag{Name: "emit", Usage: "also keep the generated module in `DIR` (a new or empty folder, or one an earlier --emit wrote, which is replaced)"},
			&cli.BoolFlag{Name: "offline", Usage: "build from the Go module cache only (GOPROXY=off), never downloading"},
		}, locationFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("build: give one spec file")
			}
			return exitError{Build(c.App.ErrWriter, c.Args().First(), c.String("o"), c.String("emit"), locationsOf(c), c.Bool("offline"))}
		},
	}
}

// Build compiles the spec at file into the program out (default: the
// pipeline's name in the working directory), keeping the generated module in
// emit when it is not empty. The program comes from the build cache when
// the same program was built before (see cachedBuild); offline builds it
// from the Go module cache only (see goBuild). Diagnostics and build
// errors go to stderr. Table sources without a declared schema take their
// table's schema, and schema_evolution sources their schema log, at loc
// (see loadAndGenerate). It returns the exit code:
// 0, or 1 when the spec is invalid or the build fails.
func Build(stderr io.Writer, file, out, emit string, loc locations, offline bool) int {
	p, files, ok := generate(stderr, file, loc)
	if !ok {
		return exitDiagnostics
	}
	if out == "" {
		out = p.Name
	}
	if emit != "" {
		err := clearEmitDir(emit)
		if err == nil {
			err = writeModule(emit, p, files)
		}
		if err != nil {
			fmt.Fprintf(stderr, "pipegen: build: %v\n", err)
			return exitDiagnostics
		}
	}
	bin, code := buildInCache(stderr, file, p, files, offline)
	if code != exitOK {
		return code
	}
	if err := copyExecutable(bin, out); err != nil {
		fmt.Fprintf(stderr, "pipegen: build: %v\n", err)
		return exitDiagnostics
	}
	return exitOK
}

// clearEmitDir makes dir ready for --emit: a folder that does not exist,
// is empty, or holds a module an earlier --emit wrote (its go.mod names a
// pipegen.generated module) is emptied; any other folder is refused, so
// --emit never deletes a user's files.
func clearEmitDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--emit %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !bytes.HasPrefix(mod, []byte("module pipegen.generated/")) {
		return fmt.Errorf("--emit %s: the folder is not empty and holds no module an earlier --emit wrote: give a new or empty folder (nothing was deleted)", dir)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("--emit %s: %w", dir, err)
		}
	}
	return nil
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
func generate(stderr io.Writer, file string, loc locations) (*spec.Pipeline, map[string][]byte, bool) {
	p, files, diags, err := loadAndGenerate(file, loc)
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
// generates its program. What the code generator cannot compile is
// reported by the checker (sql.Uncompilable, and spec/compilable.go
// outside SQL) as diagnostics; an error of Generate for a checked spec is
// a limit the checker missed or a bug, placed at the flow as a diagnostic.
// A table source without a declared schema takes the schema of its table's
// Delta log when the table is found: under loc.warehouse, or at its
// delta.`path`; a schema_evolution source the columns its schema log
// under loc.storage recorded. err is an internal failure of the generator.
func loadAndGenerate(file string, loc locations) (*spec.Pipeline, map[string][]byte, spec.Diagnostics, error) {
	p, diags := spec.LoadWith(file, loc.specOptions())
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
		Hint:    sql.UncompilableHint}
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

// buildKey identifies a program by what goes into it: the generated files,
// this pipegen's version, runtime and build flags, and the Go settings
// that change the binary (target platform, Go version, GOFLAGS; see
// goTarget).
func buildKey(files map[string][]byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", prt.Version, strings.Join(buildFlags, " "), goTarget())
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
