package storage_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/storage/storagetest"
)

func TestLocal(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store { return storage.NewLocal(filepath.Join(t.TempDir(), "root")) })
}

// opaque hides a Store's type, so Sub wraps it generically.
type opaque struct{ storage.Store }

func TestSubStore(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store {
		return storage.Sub(opaque{storage.NewLocal(t.TempDir())}, "inner/folder")
	})
}

func TestLocalListLinks(t *testing.T) {
	s := storage.NewLocal(t.TempDir())
	storagetest.Put(t, s, "b", "b")
	storagetest.Put(t, s, "d/x", "x")
	// A link to a file is listed as the file; a dangling link and a link
	// to a folder are not.
	for link, to := range map[string]string{"link": "b", "dangling": "missing", "dirlink": "d"} {
		if err := os.Symlink(s.Path(to), s.Path(link)); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := storagetest.Keys(s.List("", storage.ListOptions{})), []string{"b", "d/x", "link"}; !slices.Equal(got, want) {
		t.Errorf("List: %q, want %q", got, want)
	}
	if o, err := s.Stat("link"); err != nil || o.Size != 1 {
		t.Errorf("Stat of a link: %+v, %v; want the file's", o, err)
	}
	if o, err := s.Stat("d"); err != nil || !o.Dir() {
		t.Errorf("Stat of a folder: %+v, %v; want a folder", o, err)
	}
}

func TestLocalTemporaryFiles(t *testing.T) {
	s := storage.NewLocal(t.TempDir())
	w, err := s.Create("a/obj")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "x")
	// Until Commit the data is in a hidden temporary file beside the key.
	entries, _ := os.ReadDir(s.Path("a"))
	if len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), ".obj.") || !strings.HasSuffix(entries[0].Name(), ".tmp") {
		t.Errorf("before Commit the folder holds %v, want one .obj.*.tmp", entries)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	entries, _ = os.ReadDir(s.Path("a"))
	if len(entries) != 1 || entries[0].Name() != "obj" {
		t.Errorf("after Commit the folder holds %v, want obj alone", entries)
	}
}

func TestLocalRemoveEmptyFolders(t *testing.T) {
	s := storage.NewLocal(t.TempDir())
	storagetest.Put(t, s, "d/a/x/1", "")
	storagetest.Put(t, s, "d/b/2", "")
	s.Delete("d/a/x/1")
	s.RemoveEmptyFolders([]string{"d/a/x", "d/b"})
	if _, err := os.Stat(s.Path("d/a")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("emptied folder d/a stays: %v", err)
	}
	if _, err := os.Stat(s.Path("d/b/2")); err != nil {
		t.Errorf("d/b/2: %v", err)
	}
	if err := s.DeletePrefix(""); err == nil {
		t.Error("DeletePrefix of the root was allowed")
	}
}

func TestLocalLock(t *testing.T) {
	s := storage.NewLocal(t.TempDir())
	l1, err := s.Lock("lock", []byte("holder 1"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Lock("lock", []byte("holder 2"))
	var le *storage.LockedError
	if !errors.As(err, &le) || !errors.Is(err, storage.ErrLocked) || string(le.Holder) != "holder 1" {
		t.Fatalf("second Lock: %v, want a LockedError naming holder 1", err)
	}
	l1.Release()
	l2, err := s.Lock("lock", nil)
	if err != nil {
		t.Fatalf("Lock after Release: %v", err)
	}
	l2.Release()
}

func TestLocalAppend(t *testing.T) {
	s := storage.NewLocal(t.TempDir())
	w, err := s.CreateAppend("log/1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "a\n")
	if b, _ := storage.ReadAll(s, "log/1.jsonl"); string(b) != "a\n" {
		t.Errorf("an appended line is not visible before Close: %q", b)
	}
	w.Close()
	if _, err := s.CreateAppend("log/1.jsonl"); !errors.Is(err, storage.ErrExist) {
		t.Errorf("CreateAppend of an existing key: %v, want ErrExist", err)
	}
}

func TestLocalRestat(t *testing.T) {
	s := storage.NewLocal(t.TempDir())
	storagetest.Put(t, s, "f", "abc")
	r, err := s.Open("f")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, _ := os.OpenFile(s.Path("f"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("def")
	f.Close()
	if o, err := storage.Restat(r); err != nil || o.Size != 6 {
		t.Errorf("Restat after the file grew: %+v, %v; want size 6", o, err)
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	for _, loc := range []string{dir, "file://" + dir} {
		s, err := storage.Open(loc)
		if err != nil {
			t.Fatal(err)
		}
		if s.Location() != dir {
			t.Errorf("Open(%s) is rooted at %s", loc, s.Location())
		}
	}
	for _, loc := range []string{"s3://bucket/prefix", "file://host/x", ""} {
		if _, err := storage.Open(loc); err == nil {
			t.Errorf("Open(%q) was allowed", loc)
		}
	}
	// At defers Open's error to the first operation.
	if _, err := storage.At("s3://bucket/prefix").Stat("k"); err == nil || !strings.Contains(err.Error(), "s3") {
		t.Errorf("At(s3://...).Stat: %v, want the not-supported error", err)
	}
	if err := storage.ReplaceFile(filepath.Join(dir, "a", "f"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if b, err := storage.ReadFile(filepath.Join(dir, "a", "f")); string(b) != "x" || err != nil {
		t.Errorf("ReadFile: %q, %v", b, err)
	}
	if err := storage.RemoveAll(filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if _, err := storage.StatFile(filepath.Join(dir, "a")); !errors.Is(err, storage.ErrNotExist) {
		t.Errorf("after RemoveAll: %v", err)
	}
}
