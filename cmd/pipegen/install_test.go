package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// TestInstallFromModuleProxy installs pipegen as a user without a source
// checkout does, `go install github.com/pipegen/pipegen/cmd/pipegen@VERSION`,
// from a module proxy into an empty module cache, and builds a program with
// the installed pipegen offline (GOPROXY=off): the generated module must need
// nothing beyond what installing pipegen downloaded. The proxy serves this
// checkout as a module zip (made as the public proxy makes one, so a file
// name a module cannot hold fails here) and every other module from the
// machine's module cache, so the test needs no network.
func TestInstallFromModuleProxy(t *testing.T) {
	const version = "v0.0.0-install-test"
	goenv, err := goEnvOnce()
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	proxy := filepath.Join(work, "proxy")
	modDir := filepath.Join(proxy, pipegenModule, "@v")
	if err := os.MkdirAll(modDir, 0o755); err != nil {
		t.Fatal(err)
	}
	var zbuf bytes.Buffer
	if err := moduleZip(&zbuf, root, module.Version{Path: pipegenModule, Version: version}); err != nil {
		t.Fatalf("pipegen's source as a module zip: %v", err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(`{"Version":"` + version + `","Time":"2026-12-01T00:00:00Z"}`),
		version + ".mod":  gomod,
		version + ".zip":  zbuf.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(modDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// A new user's Go environment: empty GOPATH and module cache (the
	// compile cache is shared, it only saves time), no go.work, no
	// settings of this machine's user.
	gopath, modcache := filepath.Join(work, "gopath"), filepath.Join(work, "modcache")
	base := []string{
		"HOME=" + work, "PATH=" + os.Getenv("PATH"), "GOPATH=" + gopath, "GOMODCACHE=" + modcache,
		"GOCACHE=" + goenv["GOCACHE"], "GOROOT=" + goenv["GOROOT"], "GOTOOLCHAIN=local", "GOWORK=off",
		"GOFLAGS=-modcacherw", "GONOSUMDB=" + pipegenModule, "GOSUMDB=off",
	}
	t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", work).Run() })
	run := func(env []string, dir, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	deps := "file://" + filepath.ToSlash(filepath.Join(goenv["GOMODCACHE"], "cache", "download"))
	run(append(base, "GOPROXY=file://"+filepath.ToSlash(proxy)+","+deps), work,
		"go", "install", "-trimpath", pipegenModule+"/cmd/pipegen@"+version)
	pipegen := filepath.Join(gopath, "bin", "pipegen")

	if out := run(base, work, pipegen, "version"); !strings.Contains(out, "(module "+version+")") {
		t.Errorf("pipegen version printed %q, want the module version %s in it", out, version)
	}
	spec := filepath.Join(work, "spec.yaml")
	os.WriteFile(spec, []byte(`pipeline: installed
sources:
  raw: {files: {path: landing, format: csv}, schema: "id INT, name STRING"}
datasets:
  people: {kind: streaming_table, query: "SELECT id, upper(name) AS name FROM STREAM(raw)"}
`), 0o644)
	os.MkdirAll(filepath.Join(work, "landing"), 0o755)
	os.WriteFile(filepath.Join(work, "landing", "a.csv"), []byte("id,name\n1,ada\n2,grace\n"), 0o644)
	offline := append(base, "GOPROXY=off", "PIPEGEN_CACHE="+filepath.Join(work, "programs"))
	run(offline, work, pipegen, "build", "--offline", spec, "-o", filepath.Join(work, "installed"))
	out := run(offline, work, filepath.Join(work, "installed"), "run")
	if !strings.Contains(out, "flow people: 2 rows in, 2 out") {
		t.Errorf("the program built by the installed pipegen printed:\n%s", out)
	}

	// On a machine whose module cache lacks the modules, an offline build
	// fails naming the command that fixes it, and that command works.
	empty := append(base, "GOMODCACHE="+filepath.Join(work, "modcache2"), "PIPEGEN_CACHE="+filepath.Join(work, "programs2"))
	cmd := exec.Command(pipegen, "build", "--offline", spec, "-o", filepath.Join(work, "again"))
	cmd.Dir, cmd.Env = work, append(empty, "GOPROXY=off")
	msg, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "run the same command without --offline where a Go module proxy is reachable") {
		t.Fatalf("offline build with an empty module cache: %v\n%s", err, msg)
	}
	run(append(empty, "GOPROXY="+deps), work, pipegen, "build", spec, "-o", filepath.Join(work, "again"))
}

// moduleZip writes the module zip of the source tree at root as version m:
// the files git tracks or would track (the working tree's content, so the
// test sees uncommitted changes), laid out and checked as `go mod download`
// expects; modzip rejects file names a module cannot hold.
func moduleZip(w io.Writer, root string, m module.Version) error {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return err
	}
	var files []modzip.File
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		path := filepath.Join(root, filepath.FromSlash(name))
		if info, err := os.Lstat(path); err == nil && info.Mode().IsRegular() {
			files = append(files, zipFile{name: name, path: path, info: info})
		}
	}
	return modzip.Create(w, m, files)
}

// zipFile is one file of moduleZip.
type zipFile struct {
	name, path string
	info       os.FileInfo
}

func (f zipFile) Path() string                 { return f.name }
func (f zipFile) Lstat() (os.FileInfo, error)  { return f.info, nil }
func (f zipFile) Open() (io.ReadCloser, error) { return os.Open(f.path) }
