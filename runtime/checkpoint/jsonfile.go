package checkpoint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/pipegen/pipegen/runtime/storage"
)

// ReadJSON decodes the JSON file at the location path into v. A missing
// file is the storage's error (fs.ErrNotExist); a file that is not the
// JSON v wants is an error naming the path, for which IsCorrupt is true.
func ReadJSON(path string, v any) error {
	data, err := storage.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s is corrupt: %w", path, err)
	}
	return nil
}

// IsCorrupt reports whether err, from ReadJSON, says the file is not the
// JSON it should be (rather than unreadable).
func IsCorrupt(err error) bool {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	return errors.As(err, &se) || errors.As(err, &te) || errors.Is(err, io.ErrUnexpectedEOF)
}

// WriteJSON writes v, indented JSON ending in a newline, to the location
// path, whole or not at all and durably, so that readers see the old
// content or the new (storage.WriteFile). v must be one of the runtime's
// own plain values: one that does not marshal is a bug, and panics.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // only our own plain structs are marshalled
	}
	b = append(b, '\n')
	return storage.WriteFile(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
