package storage_test

import (
	"path/filepath"
	"testing"

	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/storage/storagetest"
)

func TestJoin(t *testing.T) {
	for _, c := range []struct {
		loc  string
		elem []string
		want string
	}{
		{"wh", []string{"main", "t"}, filepath.Join("wh", "main", "t")},
		{"/wh/", []string{"t", "_delta_log/0.json"}, filepath.Join("/wh", "t", "_delta_log", "0.json")},
		{"wh", nil, "wh"},
		{"", []string{"t"}, "t"},
		{"/wh", []string{"..", ".."}, "/"},
		{"file:///tmp/wh", []string{"t"}, "file:///tmp/wh/t"},
		{"file:///tmp", []string{"..", ".."}, "file:///"},
		{"s3://b/wh", []string{"t"}, "s3://b/wh/t"},
		{"s3://b/wh/", []string{"t/"}, "s3://b/wh/t"},
		{"s3://b", []string{"t"}, "s3://b/t"},
		{"s3://b/", nil, "s3://b"},
		{"s3://b/wh", []string{"_delta_log", "00.json"}, "s3://b/wh/_delta_log/00.json"},
		{"s3://b/wh/t", []string{"..", "u"}, "s3://b/wh/u"},
		{"s3://b/wh", []string{"..", "..", ".."}, "s3://b"}, // ".." stops at the bucket
		{"s3://b//wh/./x", nil, "s3://b/wh/x"},
		{"memtest://bucket/wh", []string{"a=1/part 1.parquet"}, "memtest://bucket/wh/a=1/part 1.parquet"},
		{"c://x", []string{"y"}, filepath.Join("c://x", "y")}, // a drive letter, no scheme
	} {
		if got := storage.Join(c.loc, c.elem...); got != c.want {
			t.Errorf("Join(%q, %q) = %q, want %q", c.loc, c.elem, got, c.want)
		}
	}
}

func TestDirBase(t *testing.T) {
	for _, c := range []struct{ loc, dir, base string }{
		{"wh/t", "wh", "t"},
		{"wh/t/", "wh/t", "t"},
		{"t", ".", "t"},
		{"/", "/", "/"},
		{"file:///tmp/wh/t", "file:///tmp/wh", "t"},
		{"file:///tmp", "file:///", "tmp"},
		{"file:///", "file:///", "/"},
		{"s3://b/wh/t", "s3://b/wh", "t"},
		{"s3://b/wh/t/", "s3://b/wh/t", "t"},
		{"s3://b/wh", "s3://b", "wh"},
		{"s3://b", "s3://b", "/"},
		{"s3://b/", "s3://b", "/"},
		{"s3://b/wh/../x", "s3://b", "x"},
	} {
		if got := storage.Dir(c.loc); got != c.dir {
			t.Errorf("Dir(%q) = %q, want %q", c.loc, got, c.dir)
		}
		if got := storage.Base(c.loc); got != c.base {
			t.Errorf("Base(%q) = %q, want %q", c.loc, got, c.base)
		}
	}
}

func TestRel(t *testing.T) {
	for _, c := range []struct{ base, target, want string }{
		{"wh/t", "wh/t/_delta_log/0.json", "_delta_log/0.json"},
		{"/wh/t", "/wh/u/x", "../u/x"},
		{"wh", "wh", "."},
		{"file:///tmp/wh", "file:///tmp/wh/t/x", "t/x"},
		{"s3://b/wh/t", "s3://b/wh/t/_delta_log/0.json", "_delta_log/0.json"},
		{"s3://b/wh/t/", "s3://b/wh/t", "."},
		{"s3://b/wh/t", "s3://b/wh/u/p", "../u/p"},
		{"s3://b", "s3://b/wh/t", "wh/t"},
		{"s3://b/wh/t", "s3://b", "../.."},
		{"s3://b/x/../wh", "s3://b/wh/y", "y"},
	} {
		got, err := storage.Rel(c.base, c.target)
		if err != nil || got != c.want {
			t.Errorf("Rel(%q, %q) = %q, %v; want %q", c.base, c.target, got, err, c.want)
		}
	}
	for _, c := range [][2]string{
		{"s3://b/wh", "s3://c/wh/t"},
		{"s3://b/wh", "/wh/t"},
		{"/wh", "s3://b/wh/t"},
		{"/wh", "wh/t"},
	} {
		if got, err := storage.Rel(c[0], c[1]); err == nil {
			t.Errorf("Rel(%q, %q) = %q, want an error", c[0], c[1], got)
		}
	}
}

func TestAbs(t *testing.T) {
	for _, loc := range []string{"s3://b/wh/", "file:///tmp/./wh"} {
		got, err := storage.Abs(loc)
		if want := storage.Join(loc); err != nil || got != want {
			t.Errorf("Abs(%q) = %q, %v; want %q", loc, got, err, want)
		}
		if !storage.IsAbs(loc) || !storage.IsURL(loc) {
			t.Errorf("IsAbs(%q), IsURL(%q) false, want true", loc, loc)
		}
	}
	want, _ := filepath.Abs("wh")
	if got, err := storage.Abs("wh"); err != nil || got != want {
		t.Errorf("Abs(wh) = %q, %v; want %q", got, err, want)
	}
	if storage.IsAbs("wh") || storage.IsURL("wh") || storage.IsURL("/wh") {
		t.Error("a relative local path is absolute or a URL")
	}
}

// mem holds the objects of the memtest:// locations of this package's
// tests.
var mem = storagetest.RegisterMem("memtest")

func TestMem(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store { return storagetest.NewMem("mem") })
}

// TestObjectURL addresses objects by URL locations through Register.
func TestObjectURL(t *testing.T) {
	loc := "memtest://bucket/wh/t/_delta_log/0.json"
	if err := storage.ReplaceFile(loc, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if b, err := storage.ReadFile(loc); err != nil || string(b) != "{}" {
		t.Errorf("ReadFile(%s) = %q, %v", loc, b, err)
	}
	s, key := storage.Object(loc)
	if key != "0.json" || s.Location() != "memtest://bucket/wh/t/_delta_log" {
		t.Errorf("Object(%s) = %s, %q", loc, s.Location(), key)
	}
	if got := mem.Keys(); len(got) != 1 || got[0] != "bucket/wh/t/_delta_log/0.json" {
		t.Errorf("objects %q, want bucket/wh/t/_delta_log/0.json", got)
	}
	if err := storage.RemoveAll("memtest://bucket/wh"); err != nil || len(mem.Keys()) != 0 {
		t.Errorf("RemoveAll: %v, objects %q left", err, mem.Keys())
	}
	defer func() {
		if recover() == nil {
			t.Error("a second Register of memtest did not panic")
		}
	}()
	storage.Register("memtest", func(string) (storage.Store, error) { return mem, nil })
}
