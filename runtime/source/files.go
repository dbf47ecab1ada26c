package source

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/types"
)

// FileInfo describes one file of a landing folder: what the runtime needs to
// select and open it, and the fields of Spark's hidden _metadata column for
// file sources (file_path, file_name, file_size, file_modification_time).
// Listing and selection do not depend on the file format, so JSON, CSV and
// Parquet sources share them.
type FileInfo struct {
	// Path is _metadata.file_path and the identity of the file in the
	// checkpoint: the absolute path as a "file:" URI without an authority,
	// percent-encoded, the form Spark and Databricks show for local files
	// (e.g. "file:/landing/orders/part 1.json" is shown as
	// "file:/landing/orders/part%201.json"). See FileURI.
	Path string
	// Name is _metadata.file_name: the last element of the path, not encoded
	// (bytes that are not UTF-8 become U+FFFD, as a JVM decodes them).
	Name string
	// Size is _metadata.file_size, in bytes.
	Size int64
	// ModificationTime is _metadata.file_modification_time, truncated to
	// milliseconds as Hadoop's FileStatus reports it to Spark.
	ModificationTime types.Timestamp
	// LocalPath is the file's path in the local file system, for opening it
	// and for error messages; it is not part of _metadata.
	LocalPath string
}

// FileURI returns the _metadata.file_path form of an absolute local path:
// "file:" followed by the path, percent-encoded as a URI path
// ("file:/tmp/f0.csv"), as Spark shows it. A URL location (s3://...) is
// a URI already, and is returned as it is.
func FileURI(absPath string) string {
	if storage.IsURL(absPath) {
		return absPath
	}
	u := url.URL{Scheme: "file", Path: absPath, OmitHost: true}
	return u.String()
}

// Hidden reports whether a file or directory name is skipped when a landing
// folder is listed: names starting with "." or "_" (hidden files, Spark's
// "_SUCCESS", "_temporary" and "_delta_log"), names ending in ".tmp", and
// names containing "_COPYING_" (files still being copied by "hadoop fs -put").
// As in Spark's InMemoryFileIndex, a name starting with "_" that contains "="
// is a partition directory ("_year=2024") and is not hidden.
func Hidden(name string) bool {
	switch {
	case strings.HasPrefix(name, "."):
		return true
	case strings.HasPrefix(name, "_"):
		return !strings.Contains(name, "=")
	case strings.HasSuffix(name, ".tmp"), strings.Contains(name, "_COPYING_"):
		return true
	}
	return false
}

// List returns the files under root, recursively, in ingestion order (see
// SortFiles). Hidden and temporary files and directories (see Hidden) are
// skipped, directories below a hidden one included; empty files are listed.
// Symbolic links to files are followed; symbolic links to directories are not
// descended into, except root itself (a landing folder that is a link is
// read, its files named under root). root may also name a single file.
//
// A missing root is an error wrapping fs.ErrNotExist that names the folder.
// List is ListNames followed by Stat of every name.
func List(root string) ([]FileInfo, error) {
	l, err := ListNames(root)
	if err != nil {
		return nil, err
	}
	return l.Stat(l.Entries)
}

// Listing is a landing folder's file names as listed at one instant,
// without their sizes and modification times: reading the names of a
// folder costs a directory read, fetching each file's attributes a system
// call per file, so a streaming source stats only the files its
// checkpoint has not seen.
type Listing struct {
	// Root is the folder as given to ListNames.
	Root string
	// Entries are the files and links to files found, in no set order.
	Entries []Entry
}

// Entry is one name of a Listing.
type Entry struct {
	// Path is the file's FileInfo.Path (its "file:" URI).
	Path string
	// dir and name make the file's local path (see LocalPath): the
	// folder's path is shared by its entries.
	dir, name string
	// info is set when the root itself is a file, already stat-ed.
	info *FileInfo
}

// LocalPath returns the file's location (its path in the local file
// system for a local landing folder).
func (e Entry) LocalPath() string {
	if e.dir == "" {
		return e.name
	}
	return storage.Join(e.dir, e.name)
}

// ListNames lists the names under root as List does (the same hidden-file
// rules, links and errors), without reading any file's attributes: one
// directory read per folder (storage.Store.List with NamesOnly), one
// string per file for its URI.
func ListNames(root string) (*Listing, error) {
	abs, err := storage.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("list landing folder %s: %w", root, err)
	}
	st, err := storage.StatFile(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("landing folder %s does not exist: create it or fix files.path: %w", root, err)
		}
		return nil, fmt.Errorf("list landing folder %s: %w", root, err)
	}
	l := &Listing{Root: root}
	if !st.Dir() {
		fi := fileInfo(abs, st)
		l.Entries = []Entry{{Path: fi.Path, name: abs, info: &fi}}
		return l, nil
	}
	// A root that is a link is read: its files are named under the root.
	objects, err := storage.At(abs).List("", storage.ListOptions{NamesOnly: true, Skip: Hidden, Unsorted: true})
	if err != nil {
		return nil, fmt.Errorf("list landing folder %s: %w", root, err)
	}
	l.Entries = make([]Entry, 0, len(objects))
	// A folder's entries come together (in no set order): its local path
	// and URI are made once, and a file name of plain characters is
	// appended to the folder's URI instead of encoding its whole path.
	folder, dir, dirURI := "", abs, strings.TrimSuffix(FileURI(abs), "/")
	for _, o := range objects {
		f, n := "", o.Key
		if i := strings.LastIndexByte(o.Key, '/'); i >= 0 {
			f, n = o.Key[:i], o.Key[i+1:]
		}
		if f != folder {
			folder, dir = f, storage.Join(abs, f)
			dirURI = strings.TrimSuffix(FileURI(dir), "/")
		}
		uri := ""
		if plainName(n) {
			uri = dirURI + "/" + n
		} else {
			uri = FileURI(storage.Join(dir, n))
		}
		l.Entries = append(l.Entries, Entry{Path: uri, dir: dir, name: n})
	}
	return l, nil
}

// plainName reports whether a file name is made of characters a URI path
// keeps as they are, so its URI is its folder's URI, "/" and the name.
func plainName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~') {
			return false
		}
	}
	return name != ""
}

// Stat returns the FileInfo of the given entries of l, in ingestion order
// (see SortFiles). An entry deleted since the listing, a dangling link and
// a link to a folder are left out.
func (l *Listing) Stat(entries []Entry) ([]FileInfo, error) {
	files := make([]FileInfo, 0, len(entries))
	for _, e := range entries {
		if e.info != nil {
			files = append(files, *e.info)
			continue
		}
		local := e.LocalPath()
		st, err := storage.StatFile(local) // follows a link to a file
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // deleted since the listing, or a dangling link
			}
			return nil, fmt.Errorf("list landing folder %s: %w", l.Root, err)
		}
		if !st.Dir() {
			fi := fileInfo(local, st)
			fi.Path = e.Path
			files = append(files, fi)
		}
	}
	SortFiles(files)
	return files, nil
}

func fileInfo(abs string, st storage.ObjectInfo) FileInfo {
	return FileInfo{
		Path:             FileURI(abs),
		Name:             validUTF8(storage.Base(abs)),
		Size:             st.Size,
		ModificationTime: types.Timestamp(st.ModTime.Truncate(time.Millisecond).UnixMicro()),
		LocalPath:        abs,
	}
}

// validUTF8 returns name with each byte that is not part of a UTF-8
// sequence replaced by U+FFFD, as a JVM decodes a file name: a STRING
// value must be UTF-8.
func validUTF8(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	return string([]rune(name))
}

// SortFiles sorts files into ingestion order: oldest modification time
// first, as Spark's file stream source and Auto Loader process them, ties
// broken by Path so the order is deterministic.
func SortFiles(files []FileInfo) {
	slices.SortFunc(files, func(a, b FileInfo) int {
		if a.ModificationTime != b.ModificationTime {
			if a.ModificationTime < b.ModificationTime {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Path, b.Path)
	})
}

// Limits bound one micro-batch of a file source, as the spec's
// max_files_per_trigger and max_bytes_per_trigger (Spark's maxFilesPerTrigger
// and Auto Loader's cloudFiles.maxBytesPerTrigger). Zero means no limit.
type Limits struct {
	// MaxFiles is the most files a batch takes.
	MaxFiles int
	// MaxBytes is a soft limit on the sum of file sizes: a batch takes files
	// while their total stays within it, and always at least one file, so a
	// file larger than MaxBytes forms a batch of its own.
	MaxBytes int64
}

// DefaultMaxFilesPerTrigger is Auto Loader's default for
// cloudFiles.maxFilesPerTrigger, the max_files_per_trigger of a file source
// that sets none (spec applies it; the schema's description is checked
// against it).
const DefaultMaxFilesPerTrigger = 1000

// NextBatch splits pending (files not yet ingested, in ingestion order) into
// the next micro-batch and the rest. The batch is the longest prefix within
// the limits, with at least one file when pending is not empty; selection
// stops at the first file that does not fit, so files are never reordered.
func NextBatch(pending []FileInfo, lim Limits) (batch, rest []FileInfo) {
	n := 0
	var bytes int64
	for n < len(pending) {
		if lim.MaxFiles > 0 && n >= lim.MaxFiles {
			break
		}
		if lim.MaxBytes > 0 && n > 0 && bytes+pending[n].Size > lim.MaxBytes {
			break
		}
		bytes += pending[n].Size
		n++
	}
	return pending[:n:n], pending[n:]
}
