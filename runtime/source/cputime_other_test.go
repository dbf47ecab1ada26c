//go:build !unix

package source_test

// processCPU is not measured on this platform.
func processCPU() float64 { return 0 }
