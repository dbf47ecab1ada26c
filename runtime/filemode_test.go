package runtime

import (
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFilesShareTheUmask: every file an update creates, in the table
// (data files, commits, checksums, checkpoints) and in the pipeline's
// storage, has mode 0666 less the process's umask: with umask 027, 0640.
// Commits and checksums used to be 0600 (os.CreateTemp), so another user
// could read a table's data files but not its log.
func TestFilesShareTheUmask(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()
	t0 := time.Now().Add(-time.Hour)
	// Eleven updates with new input: the eleventh commit is after a
	// checkpoint (every ten commits).
	for i := 0; i < 11; i++ {
		landOrders(t, dir, "landing/eu", "e"+string(rune('a'+i))+".json", t0.Add(time.Duration(i)*time.Minute), i+1)
		mustRun(t, regionFlows("eu"), dir, RunOptions{})
	}
	kinds := map[string]int{}
	err := filepath.WalkDir(filepath.Join(dir, "warehouse"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		kinds[filepath.Ext(path)]++
		if m := info.Mode().Perm(); m != 0o640 {
			t.Errorf("%s: mode %o, want 640", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".json", ".crc", ".parquet", ".jsonl"} {
		if kinds[ext] == 0 {
			t.Errorf("no %s file was written (files by extension: %v)", ext, kinds)
		}
	}
}
