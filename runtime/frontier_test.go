package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/checkpoint"
)

// TestFrontierIngestionOrder checks that the files of an update's frontier
// come in ingestion order (modification time, then path) whatever the
// directory order, also when their attributes were read by an earlier
// call, that files a flow has seen are left out, and that filesByPath
// names a file that is not in the frontier.
func TestFrontierIngestionOrder(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	const n = 40
	for i := range n {
		// Names sort in the opposite order of their times.
		p := filepath.Join(dir, fmt.Sprintf("f%03d.json", n-i))
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := base.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	u := &update{sources: map[string]*FileSourceInfo{"src": {Name: "src", Dir: dir}}, listings: map[string]*fileFrontier{}}
	check := func(label string, seen checkpoint.FileSet, want int) {
		t.Helper()
		files, err := u.unseenFiles("src", seen)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != want {
			t.Fatalf("%s: %d files, want %d", label, len(files), want)
		}
		for i, f := range files {
			if w := fmt.Sprintf("f%03d.json", want-i); f.Name != w {
				t.Fatalf("%s: file %d is %s, want %s", label, i, f.Name, w)
			}
		}
	}
	check("first listing", nil, n)
	check("attributes already read", nil, n)
	seen := checkpoint.FileSet{}
	all, _ := u.listFiles("src")
	for _, f := range all[:10] { // the oldest
		seen[f.Path] = stampOf(f)
	}
	check("ten seen", seen, n-10)
	files, missing, err := u.filesByPath("src", []string{all[3].Path, all[1].Path})
	if err != nil || len(missing) != 0 || len(files) != 2 || files[0].Path != all[3].Path || files[1].Path != all[1].Path {
		t.Errorf("filesByPath: %v, missing %q, %v; want files 3 and 1", files, missing, err)
	}
	if _, missing, err = u.filesByPath("src", []string{all[3].Path, "file:/elsewhere/x.json"}); !slices.Equal(missing, []string{"file:/elsewhere/x.json"}) || err != nil {
		t.Errorf("filesByPath of a file elsewhere: missing %q, %v", missing, err)
	}
}
