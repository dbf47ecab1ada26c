package spec

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/pipegen/pipegen/runtime/types"
)

// initialisms are written in upper case in Go names (Go's naming style:
// OrderID, not OrderId).
var initialisms = map[string]bool{
	"api": true, "csv": true, "http": true, "id": true, "ip": true, "json": true,
	"sql": true, "uri": true, "url": true, "utc": true, "uuid": true, "ts": false,
}

// GoName returns an exported Go identifier for a spec or SQL name:
// underscore- or symbol-separated words are capitalized and joined
// ("order_id" → "OrderID", "_rescued_data" → "RescuedData"); a name that
// does not start with a letter gets an "X" prefix; an empty one is "X".
// Exported identifiers cannot clash with Go keywords.
func GoName(name string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if initialisms[strings.ToLower(w)] {
			b.WriteString(strings.ToUpper(w))
			continue
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	s := b.String()
	if s == "" {
		return "X"
	}
	if r := []rune(s)[0]; !unicode.IsUpper(r) {
		s = "X" + s
	}
	return s
}

// goNamer hands out unique Go names within one scope.
type goNamer struct {
	used map[string]bool
}

func newGoNamer() *goNamer { return &goNamer{used: map[string]bool{}} }

// name returns GoName(s), with a numeric suffix ("2", "3", ...) when that
// is already taken in the scope.
func (n *goNamer) name(s string) string {
	base := GoName(s)
	g := base
	for i := 2; n.used[g]; i++ {
		g = base + strconv.Itoa(i)
	}
	n.used[g] = true
	return g
}

// GoFieldNames returns unique exported Go field names for the fields of a
// STRUCT type (nested anywhere in a column's type), by the rules of
// GoName; the generator uses it for nested structs so that spec settles
// every Go name.
func GoFieldNames(fields []types.Field) []string {
	n := newGoNamer()
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = n.name(f.Name)
	}
	return out
}

func formatInt(v int64) string { return strconv.FormatInt(v, 10) }
