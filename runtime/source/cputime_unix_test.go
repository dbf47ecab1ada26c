//go:build unix

package source_test

import "syscall"

// processCPU returns the CPU time the process has used, all threads (the
// garbage collector's included), in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
