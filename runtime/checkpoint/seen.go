package checkpoint

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/storage"
)

// FileSet is the processed-file record of one file source: each file's
// path ("file:" URI) and its Stamp when it was ingested.
type FileSet map[string]Stamp

// Has reports whether the record holds path.
func (s FileSet) Has(path string) bool {
	_, ok := s[path]
	return ok
}

// Stamp is a file's size in bytes and modification time in ms since the
// epoch as ingested, "<size>\t<mtime>" as the compacted record writes
// them (so that loading a record of many files parses no number; compare
// stamps made with MakeStamp), or UnknownStamp in records written before
// pipegen kept them.
type Stamp string

// UnknownStamp is the Stamp of a file recorded without size and time.
const UnknownStamp Stamp = ""

// MakeStamp is the Stamp of a file of size bytes modified at mtime (ms
// since the epoch).
func MakeStamp(size, mtime int64) Stamp {
	return Stamp(strconv.FormatInt(size, 10) + "\t" + strconv.FormatInt(mtime, 10))
}

// Parts returns the size and modification time of a known stamp.
func (s Stamp) Parts() (size, mtime int64) {
	a, b, _ := strings.Cut(string(s), "\t")
	size, _ = strconv.ParseInt(a, 10, 64)
	mtime, _ = strconv.ParseInt(b, 10, 64)
	return size, mtime
}

// compactRecord is compact/<N>.json, the JSON form of the compacted
// record written before 0.9, still read.
type compactRecord struct {
	Seen     map[string][]string `json:"seen"`
	Versions map[string]int64    `json:"versions"`
}

// compactFile is one compacted record in compact/.
type compactFile struct {
	batch int64
	path  string
}

// compactions lists the compacted records of the checkpoint in dir,
// oldest first, in either form.
func compactions(dir string) ([]compactFile, error) {
	var out []compactFile
	for _, ext := range []string{".json", seenExt} {
		nums, err := batchNumbers(storage.Join(dir, "compact"), ext)
		if err != nil {
			return nil, err
		}
		for _, n := range nums {
			out = append(out, compactFile{n, storage.Join(dir, "compact", strconv.FormatInt(n, 10)+ext)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].batch < out[j].batch })
	return out, nil
}

// seenExt names the compacted record: a text file, so that reading the
// paths of ten thousand files is splitting lines, not decoding JSON.
const seenExt = ".seen"

// seenHeader is the first line of a compacted record; seenHeaderV1 that
// of records written by earlier versions, which have no closing "end"
// line.
const (
	seenHeader   = "pipegen processed files v2"
	seenHeaderV1 = "pipegen processed files v1"
)

// writeCompact writes the compacted record of the files seen and table
// versions read through the last committed batch:
//
//	pipegen processed files v1
//	version <TAB> input <TAB> last table version read
//	files <TAB> input <TAB> count
//	<one file per line, sorted by path: count lines of
//	 path <TAB> size <TAB> modification time (ms), or path alone>
//	end
//
// The closing line tells a record cut short at a line boundary from a
// whole one. Paths are "file:" URIs, percent-encoded, so they hold no line breaks or
// tabs; input names are dataset names.
func (cp *Stream) writeCompact(path string) error {
	return storage.WriteFile(path, func(w io.Writer) error {
		io.WriteString(w, seenHeader+"\n")
		for _, input := range slices.Sorted(maps.Keys(cp.Versions)) {
			fmt.Fprintf(w, "version\t%s\t%d\n", input, cp.Versions[input])
		}
		for _, input := range slices.Sorted(maps.Keys(cp.Seen)) {
			set := cp.Seen[input]
			paths := slices.Sorted(maps.Keys(set))
			fmt.Fprintf(w, "files\t%s\t%d\n", input, len(paths))
			for _, p := range paths {
				line := p + "\n"
				if st := set[p]; st != UnknownStamp {
					line = p + "\t" + string(st) + "\n"
				}
				if _, err := io.WriteString(w, line); err != nil {
					return err
				}
			}
		}
		_, err := io.WriteString(w, "end\n")
		return err
	})
}

// readCompact adds a compacted record, in either form, to cp.
func (cp *Stream) readCompact(path string) error {
	if strings.HasSuffix(path, ".json") {
		var c compactRecord
		if err := ReadJSON(path, &c); err != nil {
			return err
		}
		for input, paths := range c.Seen {
			m := make(FileSet, len(paths))
			for _, p := range paths {
				m[p] = UnknownStamp
			}
			cp.Seen[input] = m
		}
		for input, v := range c.Versions {
			cp.Versions[input] = v
		}
		return nil
	}
	data, err := storage.ReadFile(path)
	if err != nil {
		return err
	}
	corrupt := func(line int, why string) error {
		return fmt.Errorf("%s:%d is corrupt (%s); a full refresh of the flow's table resets the checkpoint", path, line, why)
	}
	text := string(data)
	if text != "" && !strings.HasSuffix(text, "\n") {
		return corrupt(strings.Count(text, "\n")+1, "unterminated last line: the file was cut short")
	}
	line := 0
	next := func() (string, bool) {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return "", false
		}
		l := text[:i]
		text = text[i+1:]
		line++
		return l, true
	}
	h, ok := next()
	if !ok || h != seenHeader && h != seenHeaderV1 {
		return corrupt(1, "not a processed-file record")
	}
	for {
		l, ok := next()
		if !ok {
			if h == seenHeaderV1 {
				return nil
			}
			return corrupt(line+1, "no closing line: the file was cut short")
		}
		if l == "end" && h == seenHeader {
			if text != "" {
				return corrupt(line+1, "text after the closing line")
			}
			return nil
		}
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			return corrupt(line, "want kind, input and number")
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return corrupt(line, err.Error())
		}
		switch f[0] {
		case "version":
			cp.Versions[f[1]] = n
		case "files":
			m := make(FileSet, n)
			for range n {
				p, ok := next()
				if !ok {
					return corrupt(line+1, fmt.Sprintf("%d of %d paths of %s", len(m), n, f[1]))
				}
				st := UnknownStamp
				if i := strings.IndexByte(p, '\t'); i >= 0 {
					if strings.Count(p[i+1:], "\t") != 1 {
						return corrupt(line, "want path, size and modification time")
					}
					p, st = p[:i], Stamp(p[i+1:])
				}
				m[p] = st
			}
			cp.Seen[f[1]] = m
		default:
			return corrupt(line, "unknown kind "+strconv.Quote(f[0]))
		}
	}
}
