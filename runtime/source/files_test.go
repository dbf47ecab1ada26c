package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
)

func TestHidden(t *testing.T) {
	for name, want := range map[string]bool{
		"part-0.json":          false,
		".part-0.json.crc":     true,
		".DS_Store":            true,
		"_SUCCESS":             true,
		"_temporary":           true,
		"_delta_log":           true,
		"_year=2024":           false, // a partition directory, as in Spark
		"part-0.json.tmp":      true,
		"part-0.json.tmp.json": false,
		"part-0._COPYING_":     true,
		"a_COPYING_b.json":     true,
		"data_2024.json":       false,
	} {
		if got := Hidden(name); got != want {
			t.Errorf("Hidden(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestFileURI(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/f0.csv":              "file:/tmp/f0.csv",
		"/landing/my orders/a.csv": "file:/landing/my%20orders/a.csv",
		"/a/b%c.json":              "file:/a/b%25c.json",
	} {
		if got := FileURI(in); got != want {
			t.Errorf("FileURI(%q) = %q, want %q", in, got, want)
		}
	}
}

// writeTree creates files under root with the given modification times (in
// seconds after a fixed instant) and returns root.
func writeTree(t *testing.T, files map[string]int) string {
	t.Helper()
	root := t.TempDir()
	base := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	for rel, sec := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		content := strings.Repeat("x", len(rel)) // sizes differ by name
		if strings.HasPrefix(filepath.Base(rel), "empty") {
			content = ""
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := base.Add(time.Duration(sec)*time.Second + 123456*time.Microsecond)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestList(t *testing.T) {
	root := writeTree(t, map[string]int{
		"b.json":                  10,
		"a.json":                  10, // same time as b.json: path order
		"old.json":                1,
		"empty.json":              5,
		"sub/deep/c.json":         7,
		"_year=2024/d.json":       8,
		".hidden.json":            0,
		"_SUCCESS":                0,
		"x.json.tmp":              0,
		"y.json._COPYING_":        0,
		"_temporary/0/part.json":  0,
		".staging/part.json":      0,
		"sub/.crc/part.json":      0,
		"sub/_tmp/part.json":      0,
		"sub/deep/z.json.tmp":     0,
		"sub/deep/_committed_123": 0,
	})
	got, err := List(root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range got {
		rel, _ := filepath.Rel(root, f.LocalPath)
		names = append(names, filepath.ToSlash(rel))
	}
	want := []string{"old.json", "empty.json", "sub/deep/c.json", "_year=2024/d.json", "a.json", "b.json"}
	if !slices.Equal(names, want) {
		t.Fatalf("List order = %q, want %q", names, want)
	}
	f := got[0]
	abs := filepath.Join(root, "old.json")
	wantTime := types.Timestamp(time.Date(2024, 3, 1, 12, 0, 1, 123_000_000, time.UTC).UnixMicro())
	if f.Path != FileURI(abs) || f.Name != "old.json" || f.Size != int64(len("old.json")) || f.ModificationTime != wantTime || f.LocalPath != abs {
		t.Errorf("FileInfo = %+v, want path %s, size 8, time %v (milliseconds)", f, FileURI(abs), wantTime)
	}
	if !strings.HasPrefix(f.Path, "file:/") || strings.HasPrefix(f.Path, "file://") {
		t.Errorf("Path %q is not of the form file:/abs/path", f.Path)
	}
	if got[1].Size != 0 {
		t.Errorf("empty file listed with size %d", got[1].Size)
	}
}

// TestListNames checks that the names-only listing gives every file the
// URI FileURI gives its path (names that need no encoding take a shortcut)
// and that Stat of some entries returns just those, in ingestion order.
func TestListNames(t *testing.T) {
	root := writeTree(t, map[string]int{
		"plain-1_a.csv":     3,
		"with space.csv":    1,
		"per%cent.csv":      2,
		"a+b=c;d,e@f:g.csv": 4,
		"ünï.csv":           5,
		"sub dir/x.csv":     6,
		"sub dir/y~z.csv":   0,
		".hidden.csv":       0,
		"_SUCCESS":          0,
	})
	l, err := ListNames(root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range l.Entries {
		rel, _ := filepath.Rel(root, e.LocalPath())
		names = append(names, filepath.ToSlash(rel))
		if want := FileURI(e.LocalPath()); e.Path != want {
			t.Errorf("entry %s: Path %q, want %q", rel, e.Path, want)
		}
	}
	slices.Sort(names)
	want := []string{"a+b=c;d,e@f:g.csv", "per%cent.csv", "plain-1_a.csv", "sub dir/x.csv", "sub dir/y~z.csv", "with space.csv", "ünï.csv"}
	if !slices.Equal(names, want) {
		t.Fatalf("ListNames = %q, want %q", names, want)
	}
	var some []Entry
	for _, e := range l.Entries {
		if strings.HasSuffix(e.LocalPath(), "x.csv") || strings.HasSuffix(e.LocalPath(), "space.csv") {
			some = append(some, e)
		}
	}
	os.Remove(filepath.Join(root, "per%cent.csv")) // deleted after the listing: left out
	some = append(some, Entry{Path: FileURI(filepath.Join(root, "per%cent.csv")), dir: root, name: "per%cent.csv"})
	files, err := l.Stat(some)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Name != "with space.csv" || files[1].Name != "x.csv" || files[1].Size != int64(len("sub dir/x.csv")) {
		t.Errorf("Stat = %+v, want with space.csv then x.csv", files)
	}
}

// TestListNonUTF8Name: a file name that is not UTF-8 is listed, its path
// percent-encoded and its _metadata.file_name made valid UTF-8 (U+FFFD for
// each bad byte), since a STRING column must hold UTF-8.
func TestListNonUTF8Name(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "bad\xff\xfe.json"), []byte("{}\n"), 0o644); err != nil {
		t.Skipf("the file system refuses the name: %v", err)
	}
	files, err := List(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Name != "bad\ufffd\ufffd.json" || !strings.HasSuffix(files[0].Path, "/bad%FF%FE.json") {
		t.Errorf("listed %+v, want name bad\ufffd\ufffd.json and path .../bad%%FF%%FE.json", files)
	}
}

func TestListSingleFileAndSymlink(t *testing.T) {
	root := writeTree(t, map[string]int{"data/a.json": 1, "other/b.json": 2})
	if err := os.Symlink(filepath.Join(root, "other", "b.json"), filepath.Join(root, "data", "link.json")); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	if err := os.Symlink(filepath.Join(root, "other"), filepath.Join(root, "data", "linkdir")); err != nil {
		t.Fatal(err)
	}
	got, err := List(filepath.Join(root, "data"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "a.json" || got[1].Name != "link.json" || got[1].Size != int64(len("other/b.json")) {
		t.Errorf("List = %+v, want a.json then link.json (followed, size of its target), linked directory not descended", got)
	}
	one, err := List(filepath.Join(root, "data", "a.json"))
	if err != nil || len(one) != 1 || one[0].Name != "a.json" {
		t.Errorf("List(file) = %+v, %v, want the file itself", one, err)
	}
}

// TestListLinkedRoot: a landing folder that is a symbolic link is read,
// its files (nested ones too) named under the link, as the user wrote it.
func TestListLinkedRoot(t *testing.T) {
	root := writeTree(t, map[string]int{"real/a.json": 1, "real/day=2/b.json": 2, "real/_tmp/c.json": 3})
	landing := filepath.Join(root, "landing")
	if err := os.Symlink(filepath.Join(root, "real"), landing); err != nil {
		t.Fatal(err)
	}
	got, err := List(landing)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range got {
		paths = append(paths, f.LocalPath)
	}
	want := []string{filepath.Join(landing, "a.json"), filepath.Join(landing, "day=2", "b.json")}
	slices.Sort(paths)
	if !slices.Equal(paths, want) {
		t.Errorf("List(link) = %v, want %v", paths, want)
	}
}

func TestListMissingFolder(t *testing.T) {
	_, err := List(filepath.Join(t.TempDir(), "nope"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "nope") || !strings.Contains(err.Error(), "files.path") {
		t.Errorf("List(missing) error = %v, want one wrapping fs.ErrNotExist that names the folder and says what to fix", err)
	}
}

func files(sizes ...int64) []FileInfo {
	var fs []FileInfo
	for i, s := range sizes {
		fs = append(fs, FileInfo{Path: "file:/l/" + string(rune('a'+i)), Size: s, ModificationTime: types.Timestamp(i)})
	}
	return fs
}

func paths(fs []FileInfo) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(strings.TrimPrefix(f.Path, "file:/l/"))
	}
	return b.String()
}

func TestNextBatch(t *testing.T) {
	for _, tc := range []struct {
		name        string
		sizes       []int64
		lim         Limits
		batch, rest string
	}{
		{"no limits takes all", []int64{1, 2, 3}, Limits{}, "abc", ""},
		{"max files", []int64{1, 2, 3}, Limits{MaxFiles: 2}, "ab", "c"},
		{"max bytes exact fit", []int64{4, 6, 1}, Limits{MaxBytes: 10}, "ab", "c"},
		{"max bytes stops at first misfit", []int64{4, 7, 1}, Limits{MaxBytes: 10}, "a", "bc"},
		{"soft limit: one big file alone", []int64{50, 1}, Limits{MaxBytes: 10}, "a", "b"},
		{"both limits, files first", []int64{1, 1, 1}, Limits{MaxFiles: 2, MaxBytes: 100}, "ab", "c"},
		{"both limits, bytes first", []int64{5, 5, 5}, Limits{MaxFiles: 3, MaxBytes: 10}, "ab", "c"},
		{"empty files count as files", []int64{0, 0, 0}, Limits{MaxFiles: 2, MaxBytes: 1}, "ab", "c"},
		{"nothing pending", nil, Limits{MaxFiles: 1}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, r := NextBatch(files(tc.sizes...), tc.lim)
			if paths(b) != tc.batch || paths(r) != tc.rest {
				t.Errorf("NextBatch = %q, %q; want %q, %q", paths(b), paths(r), tc.batch, tc.rest)
			}
		})
	}
}

func TestSortFiles(t *testing.T) {
	fs := []FileInfo{
		{Path: "file:/b", ModificationTime: 2},
		{Path: "file:/c", ModificationTime: 1},
		{Path: "file:/a", ModificationTime: 2},
	}
	SortFiles(fs)
	if fs[0].Path != "file:/c" || fs[1].Path != "file:/a" || fs[2].Path != "file:/b" {
		t.Errorf("SortFiles = %v, want oldest first, ties by path", fs)
	}
}
