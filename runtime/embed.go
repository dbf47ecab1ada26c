package runtime

import (
	"embed"
	"io/fs"
	"strings"
)

// code is this runtime's own source, so that `pipegen build` can write the
// runtime of the same pipegen next to the generated program and build it
// offline (no fetch of the runtime, whatever pipegen version is installed).
//
//go:embed *.go cdc/*.go checkpoint/*.go cli/*.go delta/*.go eventlog/*.go parquetio/*.go refresh/*.go source/*.go sqlfn/*.go statecodec/*.go storage/*.go table/*.go types/*.go
var code embed.FS

// WalkCode calls fn for every non-test Go file of the runtime package tree,
// with its path relative to the runtime folder ("sink.go",
// "delta/log.go") and contents, in lexical order.
func WalkCode(fn func(path string, data []byte) error) error {
	return fs.WalkDir(code, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := code.ReadFile(path)
		if err != nil {
			return err
		}
		return fn(path, data)
	})
}
