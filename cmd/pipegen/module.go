package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	prt "github.com/pipegen/pipegen/runtime"
	"github.com/pipegen/pipegen/spec"
)

// gosum is pipegen's own go.sum (a copy kept equal to the repository's by
// TestEmbeddedGoSum; refresh it with `go generate ./cmd/pipegen`). The
// generated module is built against the module versions pipegen was built
// with, so pipegen's go.sum holds every checksum its build needs: with it
// the build needs no `go mod tidy`, which would want the go.mod files of
// the dependencies' own test dependencies, modules that nothing else
// downloads (a machine that only built pipegen lacks them).
//
//go:generate cp ../../go.sum gosum.txt
//go:embed gosum.txt
var gosum []byte

// writeModule writes the generated program as a Go module in dir: the
// generated files, a go.mod that requires pipegen and the modules it was
// built with and replaces pipegen by ./pipegen, pipegen's go.sum, and in
// ./pipegen a copy of this pipegen's runtime with its own go.mod.
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
	reqs := moduleRequirements()
	var mod bytes.Buffer
	fmt.Fprintf(&mod, "module pipegen.generated/%s\n\ngo 1.26\n\nrequire %s v0.0.0\n", modName(p.Name), pipegenModule)
	if len(reqs) > 0 {
		fmt.Fprintf(&mod, "\nrequire (\n")
		for _, r := range reqs {
			fmt.Fprintf(&mod, "\t%s // indirect\n", r)
		}
		fmt.Fprintf(&mod, ")\n")
	}
	fmt.Fprintf(&mod, "\nreplace %s => ./pipegen\n", pipegenModule)
	if err := write("go.mod", mod.Bytes()); err != nil {
		return err
	}
	if err := write("go.sum", gosum); err != nil {
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

// moduleRequirements lists "path version" for every module this pipegen
// binary was built with (its build information), sorted: the versions the
// generated program is built with, so that it links the same code pipegen
// was tested with.
func moduleRequirements() []string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
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
		reqs = append(reqs, d.Path+" "+m.Version)
	}
	sort.Strings(reqs)
	return reqs
}

// runtimeGoMod is the go.mod of the runtime copy: pipegen's module with
// the dependency versions this binary was built with.
func runtimeGoMod() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "module %s\n\ngo 1.26\n", pipegenModule)
	if reqs := moduleRequirements(); len(reqs) > 0 {
		fmt.Fprintf(&b, "\nrequire (\n\t%s\n)\n", strings.Join(reqs, "\n\t"))
	}
	return b.Bytes()
}

// goTargetVars are the Go settings that change the program a build makes;
// a program built for another platform or with other flags is another
// cache entry.
var goTargetVars = []string{"GOOS", "GOARCH", "GOVERSION", "GOFLAGS", "GOEXPERIMENT", "GOAMD64", "GOARM", "GOARM64", "GO386", "GOPPC64", "GORISCV64", "GOWASM"}

// goTarget is `go env` of goTargetVars, as the build would see them (the
// environment and the go env file), or "" when go cannot be run (the build
// then fails and says why).
func goTarget() string {
	out, err := exec.Command("go", append([]string{"env"}, goTargetVars...)...).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// buildFlags are goBuild's flags; they are part of the build key.
var buildFlags = []string{"-trimpath", "-ldflags=-s -w"}

// goBuild builds the module in dir into out: a static program without the
// symbol table and DWARF (-s -w: a third smaller and faster to link; panics
// still print function names and lines), reproducible (-trimpath).
//
// The user's Go environment is respected (GOPROXY, GOFLAGS, GONOSUMDB,
// GOPRIVATE, GOMODCACHE, ...): a module missing from the module cache is
// downloaded as any go build would. With offline the build uses the module
// cache only (GOPROXY=off), which holds every module needed once pipegen
// itself was built or installed on this machine. -mod=mod on the command
// line overrides a -mod in GOFLAGS (the module has no vendor folder), and
// GOWORK=off keeps a go.work of an enclosing folder out of the build.
func goBuild(dir, out string, offline bool) error {
	env := append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0")
	if offline {
		env = append(env, "GOPROXY=off")
	}
	args := append(append([]string{"build", "-mod=mod"}, buildFlags...), "-o", out, ".")
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = env
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %v\n%s%s", err, strings.TrimSpace(msg.String()), missingModuleHint(msg.String(), offline))
	}
	return nil
}

// missingModuleHint says how to get the modules a failed build could not
// find, or is empty when the build failed for another reason.
func missingModuleHint(out string, offline bool) string {
	switch {
	case !strings.Contains(out, "module lookup disabled") && !strings.Contains(out, "missing go.sum entry") &&
		!strings.Contains(out, "dial tcp") && !strings.Contains(out, "no such host") &&
		!strings.Contains(out, "Get \"") && !strings.Contains(out, "connection refused"):
		return ""
	case offline:
		return "\n  a module is missing from the Go module cache: run the same command without --offline where a Go module proxy is reachable (it downloads them once), or `go mod download` in the pipegen source"
	case strings.Contains(out, "GOPROXY=off"):
		return "\n  a module is missing from the Go module cache and GOPROXY=off is set: run the command with GOPROXY set to a reachable Go module proxy (`GOPROXY=<proxy URL> pipegen ...`, or `go env -u GOPROXY` when it was set with `go env -w`, for Go's default), or `go mod download` in the pipegen source"
	}
	return "\n  a module could not be downloaded: check that the Go module proxy of `go env GOPROXY` is reachable (and GOPRIVATE/GONOSUMDB for private proxies), then run the command again"
}
