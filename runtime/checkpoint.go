package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/storage"
)

// A flow's checkpoint is a folder under <storage>/checkpoints/<flow>:
//
//	metadata.json      the flow's id (the Delta txn appId), definition and inputs
//	offsets/<N>.json   written before micro-batch N runs: what it reads
//	commits/<N>.json   written after micro-batch N is committed to the table
//	compact/<N>.seen   every compactEvery batches: all files seen through N
//	                   (see writeCompact; compact/<N>.json before 0.9)
//
// This is Structured Streaming's checkpoint design (offsets as a
// write-ahead log, commits as the record of completion, a compacted file
// log for file sources). The table commit of batch N carries a Delta `txn`
// action {appId: id, version: N}, so after a crash between the table commit
// and commits/N the table itself says the batch is done.

// compactEvery is how often the seen-files record is compacted.
const compactEvery = 10

// keepBatches is how many old offsets/commits files are kept behind a
// compaction, for inspection.
const keepBatches = 10

// checkpointMeta is metadata.json.
type checkpointMeta struct {
	ID         string `json:"id"`
	Flow       string `json:"flow"`
	Definition string `json:"definition"`
	// StateDefinition is the Watermark.State of a stateful flow.
	StateDefinition string `json:"stateDefinition,omitempty"`
	// StateShape and StateTypes are the Watermark.Shape and Types.
	StateShape string    `json:"stateShape,omitempty"`
	StateTypes []string  `json:"stateTypes,omitempty"`
	Inputs     []string  `json:"inputs"`
	Created    time.Time `json:"created"`
}

// batchOffsets is offsets/<N>.json: what micro-batch N reads.
type batchOffsets struct {
	Batch  int64                  `json:"batchId"`
	Inputs map[string]inputOffset `json:"inputs"`
}

// inputOffset is one streaming input's share of a micro-batch: the files
// of a file source, or the table versions (From, To] of a table.
type inputOffset struct {
	Files []seenFile `json:"files,omitempty"`
	// Skip marks files recorded without being read
	// (include_existing_files: false).
	Skip bool `json:"skip,omitempty"`
	// Versions are the table versions read: (From, To]; From is -1 when
	// the table is read from its first version.
	Versions *versionRange `json:"versions,omitempty"`
}

// versionRange is the Delta versions (From, To] a micro-batch reads.
type versionRange struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// seenSet is the processed-file record of one file source: each file's
// path and its size and modification time when it was ingested.
type seenSet map[string]fileStamp

// fileStamp is a file's size in bytes and modification time in ms since
// the epoch as ingested, "<size>\t<mtime>" as the compacted record writes
// them (so that loading a record of many files parses no number; see
// stampOf), or unknownStamp in records written before pipegen kept them.
type fileStamp string

const unknownStamp fileStamp = ""

func makeStamp(size, mtime int64) fileStamp {
	return fileStamp(strconv.FormatInt(size, 10) + "\t" + strconv.FormatInt(mtime, 10))
}

// parts returns the size and modification time of a known stamp.
func (s fileStamp) parts() (size, mtime int64) {
	a, b, _ := strings.Cut(string(s), "\t")
	size, _ = strconv.ParseInt(a, 10, 64)
	mtime, _ = strconv.ParseInt(b, 10, 64)
	return size, mtime
}

// has reports whether the record holds path.
func (s seenSet) has(path string) bool {
	_, ok := s[path]
	return ok
}

// seenFile identifies an ingested file.
type seenFile struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"modificationTime"` // ms since the epoch
}

// checkpoint is a flow's checkpoint as loaded.
type checkpoint struct {
	dir  string
	meta checkpointMeta
	// committed is the last committed batch (-1 when none).
	committed int64
	// pending holds the offsets of batch committed+1 when they were written
	// but the batch was not committed (a crash).
	pending *batchOffsets
	// seen are the files of each file source read (or skipped) by
	// committed batches.
	seen map[string]seenSet
	// versions is the last table version read per table input.
	versions map[string]int64
	// created is set when metadata.json was absent (or corrupt) and was
	// written by this load: a new flow, or a lost checkpoint.
	created bool
	// damage says what is missing or corrupt in the checkpoint as loaded.
	damage []string
}

// loadCheckpoint reads the checkpoint in dir (a new one, not yet written,
// when it has no metadata.json).
// A damaged or incomplete checkpoint is loaded as far as it goes and says
// what is wrong in damage: the caller rebuilds it from the flow's table
// or refuses to run (checkpointrepair.go); only I/O errors are returned.
func loadCheckpoint(dir string, meta checkpointMeta) (*checkpoint, error) {
	cp := &checkpoint{dir: dir, committed: -1, seen: map[string]seenSet{}, versions: map[string]int64{}}
	data, err := storage.ReadFile(filepath.Join(dir, "metadata.json"))
	if err == nil {
		if jerr := json.Unmarshal(data, &cp.meta); jerr != nil || cp.meta.ID == "" {
			cp.damage = append(cp.damage, fmt.Sprintf("metadata.json is corrupt (%v)", jerr))
			cp.meta = checkpointMeta{}
			err = fs.ErrNotExist
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		meta.ID = newID()
		meta.Created = time.Now().UTC()
		cp.meta = meta
		cp.created = true
		// What else is left of a checkpoint whose metadata was lost is
		// of no use without the id; the table's log says the rest. The
		// caller writes metadata.json (saveMeta) once it knows the flow
		// is new, so that a refused update leaves the same state.
		return cp, nil
	case err != nil:
		return nil, fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	commits, err := batchNumbers(filepath.Join(dir, "commits"), ".json")
	if err != nil {
		return nil, err
	}
	if len(commits) > 0 {
		cp.committed = commits[len(commits)-1]
	}
	// Seen files: the newest compaction at or before the last commit, then
	// every offsets file after it, each batch in turn.
	next := int64(0) // the first batch whose files are not known yet
	compacts, err := compactions(dir)
	if err != nil {
		return nil, err
	}
	for i := len(compacts) - 1; i >= 0; i-- {
		if compacts[i].batch <= cp.committed {
			if err := cp.readCompact(compacts[i].path); err != nil {
				cp.damage = append(cp.damage, err.Error())
				cp.seen, cp.versions = map[string]seenSet{}, map[string]int64{}
				break
			}
			next = compacts[i].batch + 1
			break
		}
	}
	offsets, err := batchNumbers(filepath.Join(dir, "offsets"), ".json")
	if err != nil {
		return nil, err
	}
	for _, n := range offsets {
		if n < next || n > cp.committed+1 {
			continue
		}
		var o batchOffsets
		if err := readJSON(filepath.Join(dir, "offsets", batchName(n)), &o); err != nil {
			cp.damage = append(cp.damage, err.Error())
			break
		}
		if n == cp.committed+1 {
			cp.pending = &o
			continue
		}
		if n != next {
			break // a gap: reported below
		}
		cp.apply(&o)
		next++
	}
	if next <= cp.committed {
		cp.damage = append(cp.damage, fmt.Sprintf("the record of the files read by micro-batches %d to %d is missing (offsets/ or compact/)", next, cp.committed))
	}
	return cp, nil
}

// saveMeta writes metadata.json.
func (cp *checkpoint) saveMeta() error {
	if err := writeFileAtomic(filepath.Join(cp.dir, "metadata.json"), mustJSON(cp.meta)); err != nil {
		return fmt.Errorf("checkpoint %s: %w", cp.dir, err)
	}
	cp.created = false
	return nil
}

// apply records a committed batch's offsets as read.
func (cp *checkpoint) apply(o *batchOffsets) {
	for input, off := range o.Inputs {
		if len(off.Files) > 0 {
			m := cp.seen[input]
			if m == nil {
				m = seenSet{}
				cp.seen[input] = m
			}
			for _, f := range off.Files {
				m[f.Path] = makeStamp(f.Size, f.ModTime)
			}
		}
		if off.Versions != nil {
			cp.versions[input] = off.Versions.To
		}
	}
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
		nums, err := batchNumbers(filepath.Join(dir, "compact"), ext)
		if err != nil {
			return nil, err
		}
		for _, n := range nums {
			out = append(out, compactFile{n, filepath.Join(dir, "compact", strconv.FormatInt(n, 10)+ext)})
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
func (cp *checkpoint) writeCompact(path string) error {
	return writeFileStreamed(path, func(w io.Writer) error {
		io.WriteString(w, seenHeader+"\n")
		for _, input := range sortedKeys(cp.versions) {
			fmt.Fprintf(w, "version\t%s\t%d\n", input, cp.versions[input])
		}
		for _, input := range sortedKeys(cp.seen) {
			set := cp.seen[input]
			paths := sortedKeys(set)
			fmt.Fprintf(w, "files\t%s\t%d\n", input, len(paths))
			for _, p := range paths {
				line := p + "\n"
				if st := set[p]; st != unknownStamp {
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
func (cp *checkpoint) readCompact(path string) error {
	if strings.HasSuffix(path, ".json") {
		var c compactRecord
		if err := readJSON(path, &c); err != nil {
			return err
		}
		for input, paths := range c.Seen {
			m := make(seenSet, len(paths))
			for _, p := range paths {
				m[p] = unknownStamp
			}
			cp.seen[input] = m
		}
		for input, v := range c.Versions {
			cp.versions[input] = v
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
			cp.versions[f[1]] = n
		case "files":
			m := make(seenSet, n)
			for range n {
				p, ok := next()
				if !ok {
					return corrupt(line+1, fmt.Sprintf("%d of %d paths of %s", len(m), n, f[1]))
				}
				st := unknownStamp
				if i := strings.IndexByte(p, '\t'); i >= 0 {
					if strings.Count(p[i+1:], "\t") != 1 {
						return corrupt(line, "want path, size and modification time")
					}
					p, st = p[:i], fileStamp(p[i+1:])
				}
				m[p] = st
			}
			cp.seen[f[1]] = m
		default:
			return corrupt(line, "unknown kind "+strconv.Quote(f[0]))
		}
	}
}

// writeOffsets records batch o before it runs.
func (cp *checkpoint) writeOffsets(o *batchOffsets) error {
	return writeFileAtomic(filepath.Join(cp.dir, "offsets", batchName(o.Batch)), mustJSON(o))
}

// commit records batch o as committed, compacting the seen-files record
// every compactEvery batches.
func (cp *checkpoint) commit(o *batchOffsets) error {
	cp.apply(o)
	cp.committed = o.Batch
	cp.pending = nil
	rec := map[string]any{"batchId": o.Batch, "committedAt": time.Now().UTC()}
	if err := writeFileAtomic(filepath.Join(cp.dir, "commits", batchName(o.Batch)), mustJSON(rec)); err != nil {
		return err
	}
	if (o.Batch+1)%compactEvery == 0 {
		return cp.compact()
	}
	return nil
}

// compact writes the seen-files record through the last committed batch and
// removes offsets and commits older than keepBatches behind it, and older
// compactions.
func (cp *checkpoint) compact() error {
	if err := cp.writeCompact(filepath.Join(cp.dir, "compact", strconv.FormatInt(cp.committed, 10)+seenExt)); err != nil {
		return err
	}
	compacts, err := compactions(cp.dir)
	if err != nil {
		return err
	}
	for _, c := range compacts {
		if c.batch < cp.committed {
			storage.Remove(c.path)
		}
	}
	for _, sub := range []string{"offsets", "commits"} {
		nums, err := batchNumbers(filepath.Join(cp.dir, sub), ".json")
		if err != nil {
			return err
		}
		for _, n := range nums {
			if n < cp.committed-keepBatches {
				storage.Remove(filepath.Join(cp.dir, sub, batchName(n)))
			}
		}
	}
	return nil
}

func batchName(n int64) string { return strconv.FormatInt(n, 10) + ".json" }

// batchNumbers lists the batch numbers of the N<ext> files in dir, sorted.
func batchNumbers(dir, ext string) ([]int64, error) {
	entries, err := storage.At(dir).List("", storage.ListOptions{Shallow: true, NamesOnly: true})
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, e := range entries {
		name := e.Name()
		if filepath.Ext(name) != ext {
			continue
		}
		n, err := strconv.ParseInt(name[:len(name)-len(ext)], 10, 64)
		if err == nil {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

func readJSON(path string, v any) error {
	data, err := storage.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s is corrupt: %w", path, err)
	}
	return nil
}

// isCorrupt reports whether err, from readJSON, says the file is not the
// JSON it should be (rather than unreadable).
func isCorrupt(err error) bool {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	return errors.As(err, &se) || errors.As(err, &te) || errors.Is(err, io.ErrUnexpectedEOF)
}

func mustJSON(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // only our own plain structs are marshalled
	}
	return append(b, '\n')
}

// writeFileAtomic writes data to path so that readers see the old content or
// the new, never a part (see writeFileStreamed).
func writeFileAtomic(path string, data []byte) error {
	return writeFileStreamed(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeFileStreamed writes path whole or not at all, durably, so that
// readers see the old content or the new (storage.Write: write fills a
// buffered temporary object, which Commit makes visible).
func writeFileStreamed(path string, write func(w io.Writer) error) error {
	return storage.WriteFile(path, write)
}
