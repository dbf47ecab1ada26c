package runtime

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// faultPoint stops the process with SIGKILL when the environment variable
// PIPEGEN_FAULT names this point: crash tests use it to interrupt an update
// at its most delicate instants (after data files are written and before
// the commit; after the commit and before the checkpoint; in the middle of
// a materialized view's replace) and check that a rerun gives exactly the
// rows of an uninterrupted run.
//
// The points: after-offsets (a micro-batch's offsets are written, nothing
// else), after-data-files (its data files are written, not committed),
// after-commit (a table commit of a micro-batch, a materialized view or a
// once flow is done, the checkpoint not yet), mid-mv-replace (a
// materialized view's new files are written, the replace not committed)
// and mid-full-refresh (one table of a full refresh is reset).
//
// PIPEGEN_FAULT is NAME (the first time the point is reached) or NAME@N
// (the Nth time, counting from 1, over the whole process: with flows
// running in parallel, which flow reaches it Nth is not fixed). A
// ":stop" suffix stops the process (SIGSTOP) instead of killing it, so a
// test can act at that instant (land a file, start another update) and
// let it continue with SIGCONT.
func faultPoint(name string) {
	want := os.Getenv("PIPEGEN_FAULT")
	if want == "" {
		return
	}
	sig := syscall.SIGKILL
	if w, ok := strings.CutSuffix(want, ":stop"); ok {
		want, sig = w, syscall.SIGSTOP
	}
	nth := 1
	if at := strings.LastIndexByte(want, '@'); at >= 0 {
		n, err := strconv.Atoi(want[at+1:])
		if err != nil || n < 1 {
			return // not a fault this runtime knows
		}
		want, nth = want[:at], n
	}
	if want != name {
		return
	}
	faultMu.Lock()
	faultHits[name]++
	hit := faultHits[name] == nth
	faultMu.Unlock()
	switch {
	case hit && sig == syscall.SIGSTOP:
		syscall.Kill(os.Getpid(), syscall.SIGSTOP)
	case hit:
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}

var (
	faultMu   sync.Mutex
	faultHits = map[string]int{}
)
