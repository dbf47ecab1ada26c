// Package storagetest checks that a storage.Store keeps the contract the
// runtime relies on: sorted, resumable listings, objects visible only
// once committed, exactly one winner of concurrent PutIfAbsent calls,
// ranged reads. Every Store implementation runs Run in its tests.
package storagetest

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pipegen/pipegen/runtime/storage"
)

// Run runs the contract tests against Stores that newStore returns, each
// empty and of its own.
func Run(t *testing.T, newStore func(t *testing.T) storage.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s storage.Store)
	}{
		{"List", testList},
		{"CreateVisibleOnCommit", testCreate},
		{"PutIfAbsent", testPutIfAbsent},
		{"Exclusive", testExclusive},
		{"Reader", testReader},
		{"Delete", testDelete},
		{"Sub", testSub},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore(t)) })
	}
}

// Keys returns the keys of a listing, or its error as the only element.
func Keys(l []storage.ObjectInfo, err error) []string {
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	var k []string
	for _, o := range l {
		k = append(k, o.Key)
	}
	return k
}

// Put makes data the object of key.
func Put(t *testing.T, s storage.Store, key, data string) {
	t.Helper()
	if err := s.Replace(key, []byte(data)); err != nil {
		t.Fatal(err)
	}
}

func testList(t *testing.T, s storage.Store) {
	if l, err := s.List("", storage.ListOptions{}); err != nil || len(l) != 0 {
		t.Fatalf("listing an empty store: %v, %v; want nothing and no error", l, err)
	}
	for _, k := range []string{"a/b", "a.b", "a/c/d", "b", "a/c/e", "ab", "_c/x"} {
		Put(t, s, k, k)
	}
	for _, c := range []struct {
		prefix string
		opts   storage.ListOptions
		want   []string
	}{
		// Key order: "a.b" < "a/b" because '.' < '/'.
		{"", storage.ListOptions{}, []string{"_c/x", "a.b", "a/b", "a/c/d", "a/c/e", "ab", "b"}},
		{"a/", storage.ListOptions{}, []string{"a/b", "a/c/d", "a/c/e"}},
		{"a", storage.ListOptions{}, []string{"a.b", "a/b", "a/c/d", "a/c/e", "ab"}},
		{"a/c/", storage.ListOptions{}, []string{"a/c/d", "a/c/e"}},
		{"nope/", storage.ListOptions{}, nil},
		{"", storage.ListOptions{StartAfter: "a/c/d"}, []string{"a/c/e", "ab", "b"}},
		{"", storage.ListOptions{StartAfter: "a/c/z"}, []string{"ab", "b"}},
		{"a/", storage.ListOptions{StartAfter: "a/b"}, []string{"a/c/d", "a/c/e"}},
		{"", storage.ListOptions{Shallow: true}, []string{"_c/", "a.b", "a/", "ab", "b"}},
		{"a/", storage.ListOptions{Shallow: true}, []string{"a/b", "a/c/"}},
		{"", storage.ListOptions{Skip: func(n string) bool { return strings.HasPrefix(n, "_") || n == "c" }}, []string{"a.b", "a/b", "ab", "b"}},
	} {
		if got := Keys(s.List(c.prefix, c.opts)); !slices.Equal(got, c.want) {
			t.Errorf("List(%q, %+v): %q, want %q", c.prefix, c.opts, got, c.want)
		}
	}
	got := Keys(s.List("", storage.ListOptions{Unsorted: true, NamesOnly: true}))
	slices.Sort(got)
	if want := []string{"_c/x", "a.b", "a/b", "a/c/d", "a/c/e", "ab", "b"}; !slices.Equal(got, want) {
		t.Errorf("unsorted List holds %q, want %q", got, want)
	}
	l, err := s.List("a/c/", storage.ListOptions{})
	if err != nil || len(l) != 2 || l[0].Size != int64(len("a/c/d")) || l[0].ModTime.IsZero() || l[0].Name() != "d" {
		t.Errorf("List(a/c/): %+v, %v; want sizes, times and names", l, err)
	}
}

func testCreate(t *testing.T, s storage.Store) {
	Put(t, s, "x/obj", "old")
	w, err := s.Create("x/obj")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "new")
	if b, _ := storage.ReadAll(s, "x/obj"); string(b) != "old" {
		t.Errorf("before Commit: %q, want old", b)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Errorf("Abort after Commit: %v, want nil", err)
	}
	if b, _ := storage.ReadAll(s, "x/obj"); string(b) != "new" {
		t.Errorf("after Commit: %q, want new", b)
	}
	w, _ = s.Create("x/obj", storage.NoSync)
	io.WriteString(w, "discarded")
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if b, _ := storage.ReadAll(s, "x/obj"); string(b) != "new" {
		t.Errorf("after Abort: %q, want new", b)
	}
	w, _ = s.Create("y/new")
	w.Abort()
	if ok, _ := storage.Exists(s, "y/new"); ok {
		t.Error("an aborted object exists")
	}
	err = storage.Write(s, "w", func(w io.Writer) error { io.WriteString(w, "part"); return errors.New("boom") })
	if ok, _ := storage.Exists(s, "w"); err == nil || ok {
		t.Errorf("Write that failed: %v, object exists %v", err, ok)
	}
	if err := storage.Write(s, "w", func(w io.Writer) error { _, err := io.WriteString(w, "whole"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := storage.ReadAll(s, "w"); string(b) != "whole" {
		t.Errorf("Write: %q, want whole", b)
	}
	// Hidden temporary objects of the writes above may remain only under
	// hidden names; no other object appears.
	for _, k := range Keys(s.List("", storage.ListOptions{})) {
		if !slices.Contains([]string{"w", "x/obj"}, k) && !strings.HasPrefix(k[strings.LastIndexByte(k, '/')+1:], ".") {
			t.Errorf("unexpected object %q after the writes", k)
		}
	}
}

func testPutIfAbsent(t *testing.T, s storage.Store) {
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = s.PutIfAbsent("_delta_log/0.json", []byte{byte('0' + i)}) })
	}
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won >= 0:
			t.Errorf("writers %d and %d both created the object", won, i)
		case err == nil:
			won = i
		case !errors.Is(err, storage.ErrExist):
			t.Errorf("losing PutIfAbsent: %v, want ErrExist", err)
		}
	}
	if won < 0 {
		t.Fatal("no writer created the object")
	}
	if b, _ := storage.ReadAll(s, "_delta_log/0.json"); string(b) != fmt.Sprint(won) {
		t.Errorf("object holds %q, want the winner's %d", b, won)
	}
	if got := Keys(s.List("", storage.ListOptions{})); !slices.Equal(got, []string{"_delta_log/0.json"}) {
		t.Errorf("objects %q, want the one and no temporary object", got)
	}
}

func testReader(t *testing.T, s storage.Store) {
	Put(t, s, "f", "0123456789")
	r, err := s.Open("f")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b := make([]byte, 4)
	if n, err := r.ReadAt(b, 6); n != 4 || err != nil && err != io.EOF || string(b) != "6789" || r.Size() != 10 {
		t.Errorf("ReadAt: %q %d %v size %d", b[:n], n, err, r.Size())
	}
	if n, err := r.ReadAt(b, 8); n != 2 || err == nil {
		t.Errorf("ReadAt past the end: %d, %v; want 2 bytes and an error", n, err)
	}
	all, _ := io.ReadAll(r)
	if string(all) != "0123456789" {
		t.Errorf("Read: %q", all)
	}
	if _, err := s.Open("nope"); !errors.Is(err, storage.ErrNotExist) {
		t.Errorf("Open of a missing key: %v, want ErrNotExist", err)
	}
	if _, err := s.Stat("nope"); !errors.Is(err, storage.ErrNotExist) {
		t.Errorf("Stat of a missing key: %v, want ErrNotExist", err)
	}
	if _, err := storage.ReadAll(s, "nope"); !errors.Is(err, storage.ErrNotExist) {
		t.Errorf("ReadAll of a missing key: %v, want ErrNotExist", err)
	}
	o1, err := s.Stat("f")
	if err != nil || o1.Size != 10 || o1.Version == "" {
		t.Errorf("Stat: %+v, %v; want size 10 and a version", o1, err)
	}
	Put(t, s, "f", "0123456789")
	if o2, _ := s.Stat("f"); o1.Version == o2.Version {
		t.Errorf("Version %q unchanged by a Replace", o1.Version)
	}
}

func testDelete(t *testing.T, s storage.Store) {
	Put(t, s, "d/a/1", "")
	Put(t, s, "d/b/2", "")
	Put(t, s, "d2", "")
	if err := s.Delete("d/a/1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("d/a/1"); err != nil {
		t.Errorf("Delete of a missing key: %v, want nil", err)
	}
	if err := s.DeletePrefix("d"); err != nil {
		t.Fatal(err)
	}
	if got := Keys(s.List("", storage.ListOptions{})); !slices.Equal(got, []string{"d2"}) {
		t.Errorf("after DeletePrefix(d): %q, want d2 alone", got)
	}
}

func testSub(t *testing.T, s storage.Store) {
	Put(t, s, "t/_delta_log/0", "x")
	Put(t, s, "t2", "y")
	sub := storage.Sub(s, "t")
	if got := Keys(sub.List("", storage.ListOptions{})); !slices.Equal(got, []string{"_delta_log/0"}) {
		t.Errorf("Sub: List %q", got)
	}
	if b, err := storage.ReadAll(sub, "_delta_log/0"); string(b) != "x" {
		t.Errorf("Sub: ReadAll %q %v", b, err)
	}
	if err := sub.PutIfAbsent("_delta_log/0", nil); !errors.Is(err, storage.ErrExist) {
		t.Errorf("Sub: PutIfAbsent %v", err)
	}
	Put(t, sub, "_delta_log/1", "z")
	if b, _ := storage.ReadAll(s, "t/_delta_log/1"); string(b) != "z" {
		t.Errorf("Sub: a write lands at %q", b)
	}
}

func testExclusive(t *testing.T, s storage.Store) {
	w, err := s.Create("part-1.parquet", storage.Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "rows")
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := storage.ReadAll(s, "part-1.parquet"); string(b) != "rows" {
		t.Errorf("after Commit: %q, want rows", b)
	}
	if _, err := s.Create("part-1.parquet", storage.Exclusive); !errors.Is(err, storage.ErrExist) {
		t.Errorf("Exclusive Create of an existing key: %v, want ErrExist", err)
	}
	w, err = s.Create("part-2.parquet", storage.Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "partial")
	w.Abort()
	if ok, _ := storage.Exists(s, "part-2.parquet"); ok {
		t.Error("an aborted Exclusive object exists")
	}
}
