package delta

import "github.com/pipegen/pipegen/runtime/storage"

// FileMode is the mode every file of a table (log and data) and of a
// pipeline's storage is created with, before the process's umask (see
// storage.FileMode).
const FileMode = storage.FileMode
