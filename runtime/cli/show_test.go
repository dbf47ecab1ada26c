package cli

import (
	"bytes"
	"testing"

	"github.com/pipegen/pipegen/runtime"
	"github.com/pipegen/pipegen/runtime/types"
)

// TestWriteRows: the three formats of show, with a NULL, a tab and a comma
// in values (show_formats.txtar runs them on a real table).
func TestWriteRows(t *testing.T) {
	rows := runtime.TableRows{
		Schema: types.Schema{{Name: "id", Type: types.IntType}, {Name: "name", Type: types.StringType, Nullable: true}},
		Rows:   [][]any{{int32(1), "a\tb"}, {int32(2), nil}, {int32(3), "x,y"}},
		Total:  5,
	}
	for format, want := range map[string]string{
		"table": "id  name\n1   a b\n2   NULL\n3   x,y\n(3 of 5 rows)\n",
		"csv":   "id,name\n1,a\tb\n2,\n3,\"x,y\"\n",
		"jsonl": "{\"id\":1,\"name\":\"a\\tb\"}\n{\"id\":2}\n{\"id\":3,\"name\":\"x,y\"}\n",
	} {
		var b bytes.Buffer
		writeRows(&b, rows, format)
		if b.String() != want {
			t.Errorf("%s:\n got %q\nwant %q", format, b.String(), want)
		}
	}
}
