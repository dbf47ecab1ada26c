package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/source"
)

// fileFrontier is a file source's folder as listed by an update: every name,
// and the attributes of the files stat-ed so far, so a streaming flow pays
// a system call only for the files its checkpoint has not seen.
type fileFrontier struct {
	names *source.Listing
	// infos holds the files stat-ed, by path; gone the entries that were
	// not regular files any more.
	infos map[string]source.FileInfo
	gone  map[string]bool
	// all is the whole listing in ingestion order, once asked for.
	all []source.FileInfo
	// byPath indexes names.Entries, built when first needed.
	byPath map[string]int
}

// FileSourceInfo is the resolved location and limits of a file source.
type FileSourceInfo struct {
	Name   string
	Dir    string
	Limits source.Limits
	// IncludeExisting false skips files present at the first update.
	IncludeExisting bool
	// AllowOverwrites, MinFileAge, IgnoreCorruptFiles and
	// IgnoreMissingFiles are FileSource's.
	AllowOverwrites bool
	// PathGlobFilter is FileSource's: a glob of the file names listed.
	PathGlobFilter                         string
	MinFileAge                             time.Duration
	IgnoreCorruptFiles, IgnoreMissingFiles bool
}

// frontierOf returns the frontier of a file source, listing its folder
// the first time: data that lands while the update runs waits for the next
// update (trigger available_now). u.mu is held.
func (u *update) frontierOf(name string) (*fileFrontier, error) {
	if fr, ok := u.listings[name]; ok {
		return fr, nil
	}
	info := u.sources[name]
	l, err := source.ListNames(info.Dir)
	if err != nil {
		return nil, fmt.Errorf("source %s: %w", name, err)
	}
	if info.PathGlobFilter != "" {
		g, err := source.CompileGlobFilter(info.PathGlobFilter)
		if err != nil {
			return nil, fmt.Errorf("source %s: %w", name, err)
		}
		l.Filter(g)
	}
	fr := &fileFrontier{names: l, infos: map[string]source.FileInfo{}, gone: map[string]bool{}}
	u.listings[name] = fr
	return fr, nil
}

// stat returns the attributes of the given entries of fr, in ingestion
// order, reading those not read yet. u.mu is held.
func (fr *fileFrontier) stat(sourceName string, entries []source.Entry) ([]source.FileInfo, error) {
	var todo []source.Entry
	out := make([]source.FileInfo, 0, len(entries))
	for _, e := range entries {
		if fi, ok := fr.infos[e.Path]; ok {
			out = append(out, fi)
		} else if !fr.gone[e.Path] {
			todo = append(todo, e)
		}
	}
	if len(todo) > 0 {
		read, err := fr.names.Stat(todo)
		if err != nil {
			return nil, fmt.Errorf("source %s: %w", sourceName, err)
		}
		for _, fi := range read {
			fr.infos[fi.Path] = fi
		}
		for _, e := range todo {
			if _, ok := fr.infos[e.Path]; !ok {
				fr.gone[e.Path] = true
			}
		}
		out = append(out, read...)
	}
	source.SortFiles(out)
	return out, nil
}

// listFiles returns every file of a file source in this update's frontier,
// in ingestion order: what a batch read of the folder reads.
func (u *update) listFiles(name string) ([]source.FileInfo, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	fr, err := u.frontierOf(name)
	if err != nil {
		return nil, err
	}
	if fr.all == nil {
		all, err := fr.stat(name, fr.names.Entries)
		if err != nil {
			return nil, err
		}
		info := u.sources[name]
		fr.all = slices.DeleteFunc(all, func(f source.FileInfo) bool { return u.tooYoung(info, f) })
	}
	return fr.all, nil
}

// unseenFiles returns the files of a file source in this update's frontier
// that seen (a flow's processed-file record, by path) does not hold, in
// ingestion order. Files already seen are skipped by name, without reading
// their attributes: as Auto Loader (cloudFiles.allowOverwrites false), a
// file is ingested once by path, so a long-lived landing folder costs a
// no-op update one directory read, not a system call per file.
func (u *update) unseenFiles(name string, seen checkpoint.FileSet) ([]source.FileInfo, error) {
	return u.pendingFiles(name, seen, false)
}

// pendingFiles is unseenFiles, with the files younger than min_file_age
// too when young is set: every file that waits (the backlog of the
// metrics file).
func (u *update) pendingFiles(name string, seen checkpoint.FileSet, young bool) ([]source.FileInfo, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	fr, err := u.frontierOf(name)
	if err != nil {
		return nil, err
	}
	info := u.sources[name]
	var todo []source.Entry
	for _, e := range fr.names.Entries {
		if info.AllowOverwrites || !seen.Has(e.Path) {
			todo = append(todo, e)
		}
	}
	files, err := fr.stat(name, todo)
	if err != nil {
		return nil, err
	}
	out := files[:0] // fr.stat returns a new slice
	for _, f := range files {
		if st, ok := seen[f.Path]; ok && (st == checkpoint.UnknownStamp || st == stampOf(f)) {
			continue // seen, and unchanged as far as the record says
		}
		if !young && u.tooYoung(info, f) {
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// ingestedCheckSample is how many already-ingested files of a landing
// folder a streaming flow checks for a change at each update when its
// source does not allow overwrites (with allow_overwrites every file is
// read again when it changes, so every file is stat-ed anyway): a window
// of the folder's ingested files starting at a random place, so that a
// change is reported within about N/256 updates of a folder of N files
// (at the next update for folders up to 256 files) while an update costs
// at most 256 stat calls more.
const ingestedCheckSample = 256

// checkIngestedFiles reports, with a warning event each (path, old and new
// size and modification time), the files of f's landing folders that
// changed after f ingested them, in a sample of ingestedCheckSample files
// per folder (see there). Such a file is not ingested again: as Auto
// Loader without cloudFiles.allowOverwrites, a file is ingested once by
// path; the warning says how to ingest changed files. It returns how
// many changed files it found, for the flow's progress (changed_files).
func (u *update) checkIngestedFiles(f *Flow, cp *checkpoint.Stream) (int64, error) {
	var changed int64
	for _, name := range cp.Meta.Inputs {
		info, ok := u.sources[name]
		seen := cp.Seen[name]
		if !ok || info.AllowOverwrites || len(seen) == 0 {
			continue
		}
		files, err := u.sampleIngested(name, seen)
		if err != nil {
			return changed, err
		}
		for _, fi := range files {
			st := seen[fi.Path]
			if st == checkpoint.UnknownStamp || st == stampOf(fi) {
				continue
			}
			size, mtime := st.Parts()
			u.fileChanged(f, name, fi.Path, "after it was ingested (it is not ingested again: set allow_overwrites: true on the source to ingest a changed file again)",
				size, mtime, fi.Size, int64(fi.ModificationTime)/1000)
			changed++
		}
	}
	return changed, nil
}

// sampleIngested returns the attributes of up to ingestedCheckSample files
// of source name's listing that seen records with their size and time: a
// window of them from a random start, wrapping around.
func (u *update) sampleIngested(name string, seen checkpoint.FileSet) ([]source.FileInfo, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	fr, err := u.frontierOf(name)
	if err != nil {
		return nil, err
	}
	var known []source.Entry
	for _, e := range fr.names.Entries {
		if st, ok := seen[e.Path]; ok && st != checkpoint.UnknownStamp {
			known = append(known, e)
		}
	}
	if len(known) > ingestedCheckSample {
		start := rand.IntN(len(known))
		known = append(known[start:], known[:start]...)[:ingestedCheckSample]
	}
	return fr.stat(name, known)
}

// stampOf is the size and modification time of a listed file as the
// processed-file record keeps them.
func stampOf(f source.FileInfo) checkpoint.Stamp {
	return checkpoint.MakeStamp(f.Size, int64(f.ModificationTime)/1000)
}

// tooYoung reports whether f was modified less than the source's
// min_file_age before the update started: it waits for a later update.
func (u *update) tooYoung(info *FileSourceInfo, f source.FileInfo) bool {
	return info.MinFileAge > 0 && int64(f.ModificationTime) > u.start.Add(-info.MinFileAge).UnixMicro()
}

// filesByPath returns the files of a file source in this update's
// frontier with the given paths, in the order given; missing are the
// paths that are not (or no longer) files there.
func (u *update) filesByPath(name string, paths []string) (files []source.FileInfo, missing []string, err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	fr, err := u.frontierOf(name)
	if err != nil {
		return nil, nil, err
	}
	if fr.byPath == nil {
		fr.byPath = make(map[string]int, len(fr.names.Entries))
		for i, e := range fr.names.Entries {
			fr.byPath[e.Path] = i
		}
	}
	for _, p := range paths {
		i, ok := fr.byPath[p]
		if !ok {
			missing = append(missing, p)
			continue
		}
		got, err := fr.stat(name, fr.names.Entries[i:i+1])
		if err != nil {
			return nil, nil, err
		}
		if len(got) == 0 {
			missing = append(missing, p)
			continue
		}
		files = append(files, got[0])
	}
	return files, missing, nil
}
