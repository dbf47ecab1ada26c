package runtime

import (
	"os"
	"syscall"
)

// faultPoint stops the process with SIGKILL when the environment variable
// PIPEGEN_FAULT names this point: crash tests use it to interrupt an update
// at its most delicate instants (after data files are written and before
// the commit; after the commit and before the checkpoint; in the middle of
// a materialized view's replace) and check that a rerun gives exactly the
// rows of an uninterrupted run.
func faultPoint(name string) {
	if os.Getenv("PIPEGEN_FAULT") == name {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}
