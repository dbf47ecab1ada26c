package runtime

import "github.com/pipegen/pipegen/runtime/delta"

// Version is the pipegen version this runtime belongs to. The generated
// program records the pipegen version that generated it; `pipegen build`
// always links the runtime of the same pipegen, so the two agree.
var Version = "v0.1.0-dev"

// EnforceVersion is used by generated code to check at compile time that it
// was generated for this runtime's API:
//
//	const _ = runtime.EnforceVersion(runtime.GenVersion - 1)
//	const _ = runtime.EnforceVersion(1 - runtime.MinGenVersion)
//
// The first line fails to compile (a negative constant converted to an
// unsigned type) when the runtime is older than the code needs, the second
// when the code is older than the runtime still supports.
type EnforceVersion uint

// GenVersion is the version of the generated-code API this runtime provides,
// and MinGenVersion the oldest one it still supports.
const (
	GenVersion    = 1
	MinGenVersion = 1
)

func init() {
	// Commits name the engine that wrote them (commitInfo.engineInfo).
	delta.EngineInfo = "pipegen/" + Version
}
