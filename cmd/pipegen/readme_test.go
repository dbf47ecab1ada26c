package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readmeBlock is one ```sh block of the README and the plain ``` block
// that follows it (the output the README shows), if one follows before
// the next fenced block.
type readmeBlock struct {
	line     int // of the opening fence
	commands string
	output   []string // nil: the README shows no output
}

// readmeBlocks parses the README's shell blocks and their outputs: a plain
// block is the output of the shell block right before it (prose between
// them is fine, another fenced block is not).
func readmeBlocks(readme string) []readmeBlock {
	var blocks []readmeBlock
	lines := strings.Split(readme, "\n")
	prev := ""
	for i := 0; i < len(lines); i++ {
		fence := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(fence, "```") {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
			j++
		}
		body := lines[i+1 : min(j, len(lines))]
		switch {
		case fence == "```sh":
			blocks = append(blocks, readmeBlock{line: i + 1, commands: strings.Join(body, "\n")})
		case fence == "```" && prev == "```sh":
			blocks[len(blocks)-1].output = append([]string{}, body...)
		}
		prev, i = fence, j
	}
	return blocks
}

// readmeSkipped are the README commands the test does not run: the test
// command itself, and the benchmark and soak (minutes to hours, run by
// hand).
var readmeSkipped = regexp.MustCompile(`^make (test|bench|soak)\b`)

// readmeMasks are what differs between runs of the README's commands:
// durations, file sizes (the bronze table records each row's absolute
// source path), the number of data files a flow writes (one per worker
// that received rows: on a loaded machine one worker may take every
// input chunk of a small view) and the build cache's folder.
var readmeMasks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\b\d+\.\d+s\b`), "<time>"},
	{regexp.MustCompile(`\(\d+(\.\d+)? (B|KiB|MiB|GiB)\)`), "(<size>)"},
	{regexp.MustCompile(`, \d+ files? \(<size>\)`), ", <n> files (<size>)"},
	{regexp.MustCompile(`builds are cached in [^)]*\)`), "builds are cached in <cache>)"},
}

// readmeNormalize masks readmeMasks in lines, drops blank lines and sorts.
func readmeNormalize(lines []string) []string {
	var out []string
	for _, l := range lines {
		l = strings.TrimRight(l, " ")
		if l == "" {
			continue
		}
		for _, m := range readmeMasks {
			l = m.re.ReplaceAllString(l, m.with)
		}
		out = append(out, l)
	}
	slices.Sort(out) // flows of one stage run concurrently and print in any order
	return out
}

// TestREADMECommands runs every shell block of the README in order, as a
// reader does, in a fresh copy of the repository with an empty program
// cache, and checks that each block shown with output prints that output
// (durations and sizes masked, lines in any order) and that every block
// succeeds. The set-up command and the five-minute walk must not collide.
func TestREADMECommands(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeBlocks(string(readme))
	if len(blocks) < 5 {
		t.Fatalf("found %d shell blocks in README.md", len(blocks))
	}
	clone := filepath.Join(t.TempDir(), "pipegen")
	copyTree(t, root, clone)
	env := append(os.Environ(), "PIPEGEN_CACHE="+filepath.Join(t.TempDir(), "programs"), "PIPEGEN_FAULT=")
	cwd := clone
	for _, b := range blocks {
		var script []string
		for _, l := range strings.Split(b.commands, "\n") {
			if readmeSkipped.MatchString(strings.TrimSpace(l)) {
				continue
			}
			script = append(script, l)
		}
		pwdFile := filepath.Join(t.TempDir(), "pwd")
		cmd := exec.Command("bash", "-e", "-c", strings.Join(script, "\n")+"\npwd > "+pwdFile)
		cmd.Dir, cmd.Env = cwd, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("README.md:%d: %v\n%s\n%s", b.line, err, b.commands, out.String())
		}
		pwd, err := os.ReadFile(pwdFile)
		if err != nil {
			t.Fatal(err)
		}
		cwd = strings.TrimSpace(string(pwd))
		if b.output == nil {
			continue
		}
		got, want := readmeNormalize(strings.Split(out.String(), "\n")), readmeNormalize(b.output)
		if !slices.Equal(got, want) {
			t.Errorf("README.md:%d: the commands\n%s\nprint (normalized, sorted)\n  %s\nbut the README shows\n  %s",
				b.line, b.commands, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	}
}

// copyTree copies the files git tracks or would track under root (the
// working tree's content: what a fresh clone of this state holds) to dir.
func copyTree(t *testing.T, root, dir string) {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, filepath.FromSlash(name))
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the working tree, or a link
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}
