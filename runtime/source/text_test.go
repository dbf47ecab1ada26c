package source

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/types"
)

var textTestFile = FileInfo{Path: "file:/landing/t.txt", Name: "t.txt", LocalPath: "/landing/t.txt"}

// readText reads input with the text reader, through readers that return
// the whole input, one byte and half a buffer at a time, and checks that
// all agree; rows are read n at a time.
func readText(t *testing.T, input string, o TextOptions, n int) []string {
	t.Helper()
	var first []string
	for i, wrap := range []func(io.Reader) io.Reader{
		func(r io.Reader) io.Reader { return r }, iotest.OneByteReader, iotest.HalfReader, iotest.DataErrReader,
	} {
		r, err := NewTextReader(textTestFile, wrap(strings.NewReader(input)), textColumns, o)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		rows := make([]parquet.Row, n)
		for {
			k, err := r.ReadRows(rows)
			for _, row := range rows[:k] {
				if len(row) != 1 || row[0].DefinitionLevel() != 1 || row[0].Column() != 0 {
					t.Fatalf("row %v is not one present value of column 0", row)
				}
				got = append(got, string(row[0].ByteArray()))
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if i == 0 {
			first = got
		} else if !slices.Equal(got, first) {
			t.Fatalf("reader %d read %q, the plain reader %q", i, got, first)
		}
	}
	return first
}

// TestTextLines: the line rules of Spark's text source
// (https://spark.apache.org/docs/latest/sql-data-sources-text.html): "\n",
// "\r\n" and "\r" end lines by default; empty lines are rows; a last line
// needs no separator and a final separator starts no row; line_sep is
// any string, and then the others are plain bytes (the docs' example:
// lineSep "," over "Michael, 29\nAndy, 30\nJustin, 19\n").
func TestTextLines(t *testing.T) {
	people := "Michael, 29\nAndy, 30\nJustin, 19\n"
	tests := []struct {
		name, in string
		o        TextOptions
		want     []string
	}{
		{"lf", "a\nb\nc\n", TextOptions{}, []string{"a", "b", "c"}},
		{"crlf", "a\r\nb\r\nc\r\n", TextOptions{}, []string{"a", "b", "c"}},
		{"cr", "a\rb\rc", TextOptions{}, []string{"a", "b", "c"}},
		{"mixed", "a\r\n\nb\r\rc\n\r", TextOptions{}, []string{"a", "", "b", "", "c", ""}},
		{"empty lines", "\n\na\n\n", TextOptions{}, []string{"", "", "a", ""}},
		{"no final newline", "a\nlast", TextOptions{}, []string{"a", "last"}},
		{"one line", "only", TextOptions{}, []string{"only"}},
		{"empty file", "", TextOptions{}, nil},
		{"bom", "\xEF\xBB\xBFa\nb", TextOptions{}, []string{"a", "b"}},
		{"bom only", "\xEF\xBB\xBF", TextOptions{}, nil},
		{"bom not first", "a\n\xEF\xBB\xBFb", TextOptions{}, []string{"a", "\xEF\xBB\xBFb"}},
		{"spark docs comma", people, TextOptions{LineSep: ","}, []string{"Michael", " 29\nAndy", " 30\nJustin", " 19\n"}},
		{"lf keeps cr", "a\r\nb\r\n", TextOptions{LineSep: "\n"}, []string{"a\r", "b\r"}},
		{"multi-byte sep", "a||b|c||||d", TextOptions{LineSep: "||"}, []string{"a", "b|c", "", "d"}},
		{"sep prefix at end", "a||b|", TextOptions{LineSep: "||"}, []string{"a", "b|"}},
		{"crlf sep", "a\r\nb\nc\r\n", TextOptions{LineSep: "\r\n"}, []string{"a", "b\nc"}},
		{"unicode", "zürich\n東京\n", TextOptions{}, []string{"zürich", "東京"}},
		{"wholetext", people, TextOptions{WholeText: true}, []string{people}},
		{"wholetext crlf", "a\r\nb", TextOptions{WholeText: true}, []string{"a\r\nb"}},
		{"wholetext bom", "\xEF\xBB\xBFa\n", TextOptions{WholeText: true}, []string{"a\n"}},
		{"wholetext empty", "", TextOptions{WholeText: true}, nil},
		{"wholetext ignores sep", "a,b", TextOptions{WholeText: true, LineSep: ","}, []string{"a,b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range []int{1, 2, 1024} {
				if got := readText(t, tt.in, tt.o, n); !slices.Equal(got, tt.want) {
					t.Errorf("%d rows at a time: read %q, want %q", n, got, tt.want)
				}
			}
		})
	}
}

// TestTextLinesMatchScanner: on real text (this package's Go files) the
// default line rule gives the lines bufio.ScanLines gives (which drops a
// "\r" before "\n"), an oracle this package did not write; and as many as
// the file's "\n" bytes when it ends in one (wc -l's count).
func TestTextLinesMatchScanner(t *testing.T) {
	for _, name := range []string{"text.go", "csv.go", "doc.go"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			want = append(want, sc.Text())
		}
		got := readText(t, string(b), TextOptions{}, 100)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %d lines, bufio.Scanner %d", name, len(got), len(want))
		}
		if b[len(b)-1] == '\n' && len(got) != bytes.Count(b, []byte("\n")) {
			t.Errorf("%s: %d lines, %d newlines", name, len(got), bytes.Count(b, []byte("\n")))
		}
	}
}

// TestTextSchema: the text reader reads one STRING column, under any
// name, NOT NULL at definition level 0; other schemas are refused as
// Spark refuses them.
func TestTextSchema(t *testing.T) {
	r, err := NewTextReader(textTestFile, strings.NewReader("x\n"), types.Schema{{Name: "line", Type: types.StringType}}, TextOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]parquet.Row, 2)
	if n, err := r.ReadRows(rows); n != 1 || err != io.EOF || rows[0][0].DefinitionLevel() != 0 || string(rows[0][0].ByteArray()) != "x" {
		t.Errorf("NOT NULL column: %d rows %v, %v", n, rows[:n], err)
	}
	for _, s := range []types.Schema{
		{{Name: "value", Type: types.IntType, Nullable: true}},
		{{Name: "a", Type: types.StringType, Nullable: true}, {Name: "b", Type: types.StringType, Nullable: true}},
		nil,
	} {
		if _, err := NewTextReader(textTestFile, strings.NewReader(""), s, TextOptions{}); err == nil || !strings.Contains(err.Error(), "one STRING column") {
			t.Errorf("schema %s: error %v", s, err)
		}
	}
}

// TestTextOptions: the registry's options reach the reader by name, and
// Open and CheckOptions refuse what Spark refuses.
func TestTextOptions(t *testing.T) {
	f, ok := LookupFormat(Text)
	if !ok || f.Open == nil {
		t.Fatal("text is not a registered format with a reader")
	}
	defaults := map[string]string{}
	for _, o := range f.Options {
		defaults[o.Name] = o.Default
	}
	if o, err := textOptions(defaults); err != nil || o != (TextOptions{}) {
		t.Errorf("defaults %v: %+v, %v", defaults, o, err)
	}
	if o, err := textOptions(map[string]string{"wholetext": "true", "line_sep": ";"}); err != nil || o != (TextOptions{WholeText: true, LineSep: ";"}) {
		t.Errorf("options: %+v, %v", o, err)
	}
	for _, bad := range []map[string]string{{"wholetext": "yes"}, {"wholetext": "1"}, {"header": "true"}} {
		if _, err := f.Open(textTestFile, strings.NewReader(""), textColumns, bad, Options{}); err == nil {
			t.Errorf("Open with %v: no error", bad)
		}
	}
	if name, err := f.CheckOptions(map[string]string{"line_sep": ""}); name != "line_sep" || err == nil {
		t.Errorf("empty line_sep: %q, %v", name, err)
	}
	if name, err := f.CheckOptions(map[string]string{"line_sep": "\r\n", "wholetext": "true"}); err != nil {
		t.Errorf("line_sep \\r\\n: %q, %v", name, err)
	}
}

// TestTextReadError: a read error names the file.
func TestTextReadError(t *testing.T) {
	for _, whole := range []bool{false, true} {
		r, _ := NewTextReader(textTestFile, iotest.TimeoutReader(strings.NewReader(strings.Repeat("x", 100))), textColumns, TextOptions{WholeText: whole})
		rows := make([]parquet.Row, 4)
		var err error
		for err == nil {
			_, err = r.ReadRows(rows)
		}
		if !errors.Is(err, iotest.ErrTimeout) || !strings.Contains(err.Error(), textTestFile.LocalPath) {
			t.Errorf("wholetext %v: error %v", whole, err)
		}
	}
}

// lineSource produces n numbered lines without holding them.
type lineSource struct {
	n, next int
	pending []byte
}

func (s *lineSource) Read(p []byte) (int, error) {
	for len(s.pending) < len(p) && s.next < s.n {
		s.pending = fmt.Appendf(s.pending, "line %09d of a large log file, padded to be longer than a short line\r\n", s.next)
		s.next++
	}
	if len(s.pending) == 0 {
		return 0, io.EOF
	}
	k := copy(p, s.pending)
	s.pending = s.pending[:copy(s.pending, s.pending[k:])]
	return k, nil
}

// TestTextLargeFileStreams: a file of about 800 MB is read line by line in
// a bounded buffer: every line arrives, in order, and the heap stays far
// below the file's size.
func TestTextLargeFileStreams(t *testing.T) {
	n := 10_000_000
	if testing.Short() {
		n = 1_000_000
	}
	src := &lineSource{n: n}
	r, err := NewTextReader(textTestFile, src, textColumns, TextOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]parquet.Row, 1024)
	var ms runtime.MemStats
	var peak uint64
	seen, bytesRead := 0, 0
	for calls := 0; ; calls++ {
		k, err := r.ReadRows(rows)
		for _, row := range rows[:k] {
			want := fmt.Sprintf("line %09d of a large log file, padded to be longer than a short line", seen)
			if got := string(row[0].ByteArray()); got != want {
				t.Fatalf("row %d is %q, want %q", seen, got, want)
			}
			bytesRead += len(want) + 2
			seen++
		}
		if calls%2000 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if seen != n {
		t.Fatalf("read %d lines, want %d", seen, n)
	}
	if limit := uint64(64 << 20); peak > limit {
		t.Errorf("heap in use reached %d MiB reading %d MiB of lines: the reader does not stream", peak>>20, bytesRead>>20)
	}
}
