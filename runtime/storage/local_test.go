package storage

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func keys(l []ObjectInfo, err error) []string {
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	var k []string
	for _, o := range l {
		k = append(k, o.Key)
	}
	return k
}

func put(t *testing.T, s Store, key, data string) {
	t.Helper()
	if err := s.Replace(key, []byte(data)); err != nil {
		t.Fatal(err)
	}
}

func TestLocalList(t *testing.T) {
	s := NewLocal(filepath.Join(t.TempDir(), "root"))
	if l, err := s.List("", ListOptions{}); err != nil || len(l) != 0 {
		t.Fatalf("listing a missing root: %v, %v; want nothing and no error", l, err)
	}
	for _, k := range []string{"a/b", "a.b", "a/c/d", "b", "a/c/e", "ab"} {
		put(t, s, k, k)
	}
	// Key order, not walk order: "a.b" < "a/b" because '.' < '/'.
	if got, want := keys(s.List("", ListOptions{})), []string{"a.b", "a/b", "a/c/d", "a/c/e", "ab", "b"}; !slices.Equal(got, want) {
		t.Errorf("List: %q, want %q", got, want)
	}
	if got, want := keys(s.List("a/", ListOptions{})), []string{"a/b", "a/c/d", "a/c/e"}; !slices.Equal(got, want) {
		t.Errorf("List a/: %q, want %q", got, want)
	}
	if got, want := keys(s.List("a", ListOptions{})), []string{"a.b", "a/b", "a/c/d", "a/c/e", "ab"}; !slices.Equal(got, want) {
		t.Errorf("List a: %q, want %q", got, want)
	}
	if got, want := keys(s.List("", ListOptions{StartAfter: "a/c/d"})), []string{"a/c/e", "ab", "b"}; !slices.Equal(got, want) {
		t.Errorf("List after a/c/d: %q, want %q", got, want)
	}
	if got, want := keys(s.List("", ListOptions{StartAfter: "a/c/z"})), []string{"ab", "b"}; !slices.Equal(got, want) {
		t.Errorf("List after a/c/z: %q, want %q", got, want)
	}
	if got, want := keys(s.List("", ListOptions{Shallow: true})), []string{"a.b", "a/", "ab", "b"}; !slices.Equal(got, want) {
		t.Errorf("shallow List: %q, want %q", got, want)
	}
	l, err := s.List("a/c/", ListOptions{})
	if err != nil || len(l) != 2 || l[0].Size != int64(len("a/c/d")) || l[0].ModTime.IsZero() {
		t.Errorf("List a/c/: %+v, %v; want sizes and times", l, err)
	}
	// A link to a file is listed as the file; a dangling link is not.
	if err := os.Symlink(s.Path("b"), s.Path("link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(s.Path("missing"), s.Path("dangling")); err != nil {
		t.Fatal(err)
	}
	if got, want := keys(s.List("", ListOptions{StartAfter: "b"})), []string{"link"}; !slices.Equal(got, want) {
		t.Errorf("List after b: %q, want %q", got, want)
	}
}

func TestLocalCreateVisibleOnCommit(t *testing.T) {
	s := NewLocal(t.TempDir())
	put(t, s, "x/obj", "old")
	w, err := s.Create("x/obj")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "new")
	if b, _ := ReadAll(s, "x/obj"); string(b) != "old" {
		t.Errorf("before Commit: %q, want old", b)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := ReadAll(s, "x/obj"); string(b) != "new" {
		t.Errorf("after Commit: %q, want new", b)
	}
	w, _ = s.Create("x/obj", NoSync)
	io.WriteString(w, "discarded")
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if b, _ := ReadAll(s, "x/obj"); string(b) != "new" {
		t.Errorf("after Abort: %q, want new", b)
	}
	if got := keys(s.List("", ListOptions{})); !slices.Equal(got, []string{"x/obj"}) {
		t.Errorf("temporary files left: %q", got)
	}
	w, _ = s.Create("y/new")
	w.Abort()
	if ok, _ := Exists(s, "y/new"); ok {
		t.Error("an aborted object exists")
	}
}

func TestLocalPutIfAbsent(t *testing.T) {
	s := NewLocal(filepath.Join(t.TempDir(), "t"))
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = s.PutIfAbsent("_delta_log/0.json", []byte{byte('0' + i)}) })
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrExist):
			t.Errorf("losing PutIfAbsent: %v, want ErrExist", err)
		}
	}
	if won != 1 {
		t.Errorf("%d writers created the object, want 1", won)
	}
	if got := keys(s.List("", ListOptions{})); !slices.Equal(got, []string{"_delta_log/0.json"}) {
		t.Errorf("objects %q, want the one and no temporary file", got)
	}
}

func TestLocalReader(t *testing.T) {
	s := NewLocal(t.TempDir())
	put(t, s, "f", "0123456789")
	r, err := s.Open("f")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b := make([]byte, 4)
	if n, err := r.ReadAt(b, 6); n != 4 || err != nil || string(b) != "6789" || r.Size() != 10 {
		t.Errorf("ReadAt: %q %d %v size %d", b[:n], n, err, r.Size())
	}
	all, _ := io.ReadAll(r)
	if string(all) != "0123456789" {
		t.Errorf("Read: %q", all)
	}
	if _, err := s.Open("nope"); !errors.Is(err, ErrNotExist) {
		t.Errorf("Open of a missing key: %v, want ErrNotExist", err)
	}
	if _, err := s.Stat("nope"); !errors.Is(err, ErrNotExist) {
		t.Errorf("Stat of a missing key: %v, want ErrNotExist", err)
	}
	o1, _ := s.Stat("f")
	put(t, s, "f", "0123456789")
	if o2, _ := s.Stat("f"); o1.Version == o2.Version {
		t.Errorf("Version %q unchanged by a Replace", o1.Version)
	}
}

func TestLocalDelete(t *testing.T) {
	s := NewLocal(t.TempDir())
	put(t, s, "d/a/1", "")
	put(t, s, "d/b/2", "")
	if err := s.Delete("d/a/1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("d/a/1"); err != nil {
		t.Errorf("Delete of a missing key: %v, want nil", err)
	}
	s.RemoveEmptyFolders([]string{"d/a"})
	if _, err := os.Stat(s.Path("d/a")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("empty folder d/a stays: %v", err)
	}
	if _, err := os.Stat(s.Path("d/b")); err != nil {
		t.Errorf("folder d/b: %v", err)
	}
	if err := s.DeletePrefix("d"); err != nil {
		t.Fatal(err)
	}
	if l, _ := s.List("", ListOptions{}); len(l) != 0 {
		t.Errorf("after DeletePrefix: %v", l)
	}
	if err := s.DeletePrefix(""); err == nil {
		t.Error("DeletePrefix of the root was allowed")
	}
}

func TestLocalLock(t *testing.T) {
	s := NewLocal(t.TempDir())
	l1, err := s.Lock("lock", []byte("holder 1"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Lock("lock", []byte("holder 2"))
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || string(le.Holder) != "holder 1" {
		t.Fatalf("second Lock: %v, want a LockedError naming holder 1", err)
	}
	l1.Release()
	l2, err := s.Lock("lock", nil)
	if err != nil {
		t.Fatalf("Lock after Release: %v", err)
	}
	l2.Release()
}

func TestOpenAndSub(t *testing.T) {
	dir := t.TempDir()
	for _, loc := range []string{dir, "file://" + dir} {
		s, err := Open(loc)
		if err != nil {
			t.Fatal(err)
		}
		if s.(*Local).Location() != dir {
			t.Errorf("Open(%s) is rooted at %s", loc, s.Location())
		}
	}
	if _, err := Open("s3://bucket/prefix"); err == nil || !strings.Contains(err.Error(), "s3") {
		t.Errorf("Open(s3://...): %v, want a not-supported error", err)
	}
	if _, err := Open(""); err == nil {
		t.Error("Open of an empty location was allowed")
	}
	s := NewLocal(dir)
	put(t, s, "t/_delta_log/0", "x")
	for _, sub := range []Store{Sub(s, "t"), &subStore{s: s, prefix: "t/"}} {
		if got := keys(sub.List("_delta_log/", ListOptions{})); !slices.Equal(got, []string{"_delta_log/0"}) {
			t.Errorf("%T: List %q", sub, got)
		}
		if b, err := ReadAll(sub, "_delta_log/0"); string(b) != "x" {
			t.Errorf("%T: ReadAll %q %v", sub, b, err)
		}
		if err := sub.PutIfAbsent("_delta_log/0", nil); !errors.Is(err, ErrExist) {
			t.Errorf("%T: PutIfAbsent %v", sub, err)
		}
	}
	err := Write(s, "w", func(w io.Writer) error { io.WriteString(w, "part"); return errors.New("boom") })
	if ok, _ := Exists(s, "w"); err == nil || ok {
		t.Errorf("Write that failed: %v, object exists %v", err, ok)
	}
}

func TestLocalListSkip(t *testing.T) {
	s := NewLocal(t.TempDir())
	for _, k := range []string{"a/x", "a/_tmp/y", "_b/z", "c", "_d"} {
		put(t, s, k, "")
	}
	skip := func(name string) bool { return strings.HasPrefix(name, "_") }
	if got, want := keys(s.List("", ListOptions{Skip: skip})), []string{"a/x", "c"}; !slices.Equal(got, want) {
		t.Errorf("List with Skip: %q, want %q", got, want)
	}
}

func TestLocalListUnsorted(t *testing.T) {
	s := NewLocal(t.TempDir())
	for _, k := range []string{"b", "a/2", "a/1", "c/d/e"} {
		put(t, s, k, "")
	}
	got := keys(s.List("", ListOptions{Unsorted: true, NamesOnly: true}))
	slices.Sort(got)
	if want := []string{"a/1", "a/2", "b", "c/d/e"}; !slices.Equal(got, want) {
		t.Errorf("unsorted List holds %q, want %q", got, want)
	}
}
