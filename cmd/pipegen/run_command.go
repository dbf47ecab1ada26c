package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/spec"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "build a spec's program (cached) and run one update",
		ArgsUsage: "FILE [run flags]",
		Description: "Builds the program of FILE unless this exact program was built before (the cache is keyed by\n" +
			"the generated code and this pipegen's version), then runs `PROGRAM run` with the flags after\n" +
			"FILE (--warehouse, --param k=v, --trigger, --refresh, --full-refresh, ...). Relative source\n" +
			"paths are resolved against FILE's folder. Run `PROGRAM run --help` for every flag.\n" +
			"--offline, anywhere on the line, builds from the Go module cache only (see `pipegen build`).",
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			args, offline := splitOffline(c.Args().Slice())
			if len(args) == 0 || strings.HasPrefix(args[0], "-") {
				return usagef("run: give a spec file, then the program's run flags")
			}
			return exitError{Run(c.App.Writer, c.App.ErrWriter, args[0], args[1:], offline)}
		},
	}
}

// Run builds the program of the spec at file (or reuses the cached build)
// and runs one update with the given run flags, the spec's folder as the
// base of relative source paths; offline builds from the Go module cache
// only. It returns the program's exit code (0, or 1 for a failed update),
// 1 when the spec is invalid, 2 for a usage error.
func Run(stdout, stderr io.Writer, file string, flags []string, offline bool) int {
	bin, code := cachedBuild(stderr, file, runLocations(flags), offline)
	if code != exitOK {
		return code
	}
	args := []string{"run"}
	if !hasFlag(flags, "base-dir") {
		dir, err := filepath.Abs(filepath.Dir(file))
		if err != nil {
			fmt.Fprintf(stderr, "pipegen: run: %v\n", err)
			return exitUsage
		}
		args = append(args, "--base-dir", dir)
	}
	cmd := exec.Command(bin, append(args, flags...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(stderr, "pipegen: run: %v\n", err)
		return exitDiagnostics
	}
	return exitOK
}

// splitOffline takes pipegen's --offline out of run's arguments, wherever
// it stands (the program has no such flag); the rest go to the program.
func splitOffline(in []string) (args []string, offline bool) {
	for _, a := range in {
		if a == "--offline" || a == "-offline" {
			offline = true
			continue
		}
		args = append(args, a)
	}
	return args, offline
}

// flagValue returns the value of flag --name in args (`--name v` or
// `--name=v`), or "".
func flagValue(args []string, name string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
		if (a == "--"+name || a == "-"+name) && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--"+name || strings.HasPrefix(a, "--"+name+"=") || a == "-"+name {
			return true
		}
	}
	return false
}

// cachedBuild returns the path of the spec's program, building it into the
// build cache unless it is there (see buildInCache).
func cachedBuild(stderr io.Writer, file string, loc locations, offline bool) (string, int) {
	p, files, ok := generate(stderr, file, loc)
	if !ok {
		return "", exitDiagnostics
	}
	return buildInCache(stderr, file, p, files, offline)
}

// buildInCache returns the path of the program of p made of files,
// building it into the build cache ($PIPEGEN_CACHE, default
// os.UserCacheDir()/pipegen/build; one folder per key, see buildKey)
// unless a build with the same key is there. Builds land in a temporary
// folder renamed into place, so concurrent runs never see a half-built
// program. offline builds from the Go module cache only (see goBuild).
func buildInCache(stderr io.Writer, file string, p *spec.Pipeline, files map[string][]byte, offline bool) (string, int) {
	root := os.Getenv("PIPEGEN_CACHE")
	if root == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		root = filepath.Join(cache, "pipegen", "build")
	}
	return buildIn(stderr, root, file, p, files, offline)
}

// buildIn is buildInCache with the cache folder root. A build that is not
// in the cache says so on stderr first: the first one on a machine
// compiles pipegen's runtime and its dependencies and takes a minute or
// two, which would otherwise look like a hang.
func buildIn(stderr io.Writer, root, file string, p *spec.Pipeline, files map[string][]byte, offline bool) (string, int) {
	dir := filepath.Join(root, buildKey(files))
	bin := filepath.Join(dir, p.Name)
	if st, err := os.Stat(bin); err == nil && st.Mode().IsRegular() {
		return bin, exitOK
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		fmt.Fprintf(stderr, "pipegen: run: %v\n", err)
		return "", exitDiagnostics
	}
	tmp, err := os.MkdirTemp(root, ".building-")
	if err != nil {
		fmt.Fprintf(stderr, "pipegen: run: %v\n", err)
		return "", exitDiagnostics
	}
	defer os.RemoveAll(tmp)
	if err := writeModule(filepath.Join(tmp, "src"), p, files); err != nil {
		fmt.Fprintf(stderr, "pipegen: run: %v\n", err)
		return "", exitDiagnostics
	}
	fmt.Fprintf(stderr, "pipegen: building the program of %s (the first build on a machine compiles pipegen's runtime: a minute or two; builds are cached in %s)\n", file, root)
	if err := goBuild(filepath.Join(tmp, "src"), filepath.Join(tmp, p.Name), offline); err != nil {
		fmt.Fprintf(stderr, "pipegen: build %s: %v\n", file, err)
		return "", exitDiagnostics
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another run built it first: use theirs.
		if _, serr := os.Stat(bin); serr != nil {
			fmt.Fprintf(stderr, "pipegen: run: %v\n", err)
			return "", exitDiagnostics
		}
	}
	return bin, exitOK
}
