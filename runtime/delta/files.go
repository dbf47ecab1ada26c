package delta

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// FileMode is the mode every file of a table (log and data) and of a
// pipeline's storage is created with, before the process's umask: 0666,
// so that with the usual umask 022 they are 0644 (as Spark and Hadoop's
// local file system create them) and another engine running as another
// user reads the log as well as the data.
const FileMode fs.FileMode = 0o666

// CreateTemp creates a new file in dir, like os.CreateTemp (the last "*" of
// pattern is replaced by a random string; without one it is appended), but
// with FileMode before the umask instead of os.CreateTemp's 0600: the file
// is renamed or linked into place once written, and keeps its mode.
func CreateTemp(dir, pattern string) (*os.File, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndex(pattern, "*"); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for try := 0; ; try++ {
		var b [8]byte
		_, _ = rand.Read(b[:])
		name := filepath.Join(dir, prefix+hex.EncodeToString(b[:])+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, FileMode)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, err
	}
}
