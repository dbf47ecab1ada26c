package infer

import (
	"errors"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
)

// node accumulates what the sample showed for one column, struct field,
// array element or map value. Every field is a union (a flag set by any
// value) or a maximum, so merging is commutative and associative and the
// type it gives does not depend on the order of the values.
type node struct {
	null      bool // a null or empty value was seen
	boolean   bool
	integer   bool // an integer without a significant leading zero
	notInt64  bool // an integer beyond BIGINT
	fraction  bool // a number with a point or an exponent
	exponent  bool
	date      bool
	timestamp bool
	zoned     bool // a timestamp with a zone or offset
	text      bool // a value only STRING reads

	digits    int // the most digits of an integer
	intDigits int // the most digits before the point of a fraction
	scale     int // the most digits after the point of a fraction

	object *object // JSON objects seen here
	array  *node   // the elements of JSON arrays seen here (non-nil once one is)
}

// object is the union of the JSON objects seen at one place: fields in the
// order of first appearance.
type object struct {
	names  []string
	fields map[string]*node
}

func (o *object) field(name string) *node {
	if o.fields == nil {
		o.fields = map[string]*node{}
	}
	n := o.fields[name]
	if n == nil {
		n = &node{}
		o.fields[name] = n
		o.names = append(o.names, name)
	}
	return n
}

// addText records a value given as text: a CSV field, or, with temporalOnly,
// a JSON string (which reads as STRING, DATE or TIMESTAMP, never as a
// number or a boolean). Empty text counts as null: the readers give NULL for
// it in every type but STRING.
func (n *node) addText(b []byte, temporalOnly bool) {
	if len(b) == 0 {
		n.null = true
		return
	}
	c := source.ClassifyText(b)
	switch {
	case temporalOnly && !c.Date && !c.Timestamp:
		n.text = true
	case c.Bool:
		n.boolean = true
	case c.Integer:
		n.integer = true
		n.notInt64 = n.notInt64 || !c.Int64
		n.digits = max(n.digits, c.Digits)
	case c.Fraction && beyondDouble(b):
		n.text = true // a DOUBLE would read it as Infinity: keep it as written
	case c.Fraction:
		n.fraction = true
		n.exponent = n.exponent || c.Exponent
		n.intDigits = max(n.intDigits, c.IntDigits)
		n.scale = max(n.scale, c.Scale)
	case c.Date:
		n.date = true
	case c.Timestamp:
		n.timestamp = true
		n.zoned = n.zoned || c.Zoned
	default:
		n.text = true
	}
}

// beyondDouble reports whether a number's magnitude is beyond DOUBLE's
// range (1e400), which a DOUBLE column reads as Infinity.
func beyondDouble(b []byte) bool {
	_, err := strconv.ParseFloat(string(b), 64)
	return errors.Is(err, strconv.ErrRange)
}

// merge adds what o saw to n.
func (n *node) merge(o *node) {
	n.null = n.null || o.null
	n.boolean = n.boolean || o.boolean
	n.integer = n.integer || o.integer
	n.notInt64 = n.notInt64 || o.notInt64
	n.fraction = n.fraction || o.fraction
	n.exponent = n.exponent || o.exponent
	n.date = n.date || o.date
	n.timestamp = n.timestamp || o.timestamp
	n.zoned = n.zoned || o.zoned
	n.text = n.text || o.text
	n.digits = max(n.digits, o.digits)
	n.intDigits = max(n.intDigits, o.intDigits)
	n.scale = max(n.scale, o.scale)
	if o.object != nil {
		if n.object == nil {
			n.object = &object{}
		}
		for _, name := range o.object.names {
			n.object.field(name).merge(o.object.fields[name])
		}
	}
	if o.array != nil {
		if n.array == nil {
			n.array = &node{}
		}
		n.array.merge(o.array)
	}
}

// Options that shape the types chosen (see Options).
type typeRules struct {
	decimals, ntz bool
	mapThreshold  int
}

var stringType = types.Type{Kind: types.StringKind}

// maxExactDoubleDigits is the most digits an integer may have to be held
// exactly by a DOUBLE (2^53 has 16 digits; every 15-digit integer fits).
const maxExactDoubleDigits = 15

// typ returns the narrowest type that reads every value seen without loss
// (Spark's widening where it is lossless): see the package doc.
func (n *node) typ(r typeRules) types.Type {
	scalar := n.boolean || n.integer || n.fraction || n.date || n.timestamp || n.text
	number := n.integer || n.fraction
	temporal := n.date || n.timestamp
	kinds := 0
	for _, k := range []bool{scalar, n.object != nil, n.array != nil} {
		if k {
			kinds++
		}
	}
	switch {
	case kinds == 0:
		return stringType // only nulls: nothing says more
	case kinds > 1:
		return stringType // a JSON object or array in some records and not in others: its JSON text
	case n.object != nil:
		return n.object.typ(r)
	case n.array != nil:
		return types.ArrayOf(n.array.typ(r), true)
	case n.text, n.boolean && (number || temporal), number && temporal:
		return stringType
	case n.boolean:
		return types.Type{Kind: types.BooleanKind}
	case n.fraction:
		p := max(n.intDigits, n.digits, 1) + n.scale
		exact := !n.exponent && p <= 38
		if r.decimals && exact {
			return types.DecimalOf(p, n.scale)
		}
		if n.digits > maxExactDoubleDigits {
			// integers a DOUBLE would round: a DECIMAL holds them and the fractions
			if exact {
				return types.DecimalOf(p, n.scale)
			}
			return stringType
		}
		return types.Type{Kind: types.DoubleKind}
	case n.integer:
		switch {
		case !n.notInt64:
			return types.Type{Kind: types.LongKind}
		case n.digits <= 38:
			return types.DecimalOf(38, 0)
		}
		return stringType
	case n.timestamp:
		if r.ntz && !n.zoned {
			return types.Type{Kind: types.TimestampNTZKind}
		}
		return types.Type{Kind: types.TimestampKind}
	case n.date:
		return types.Type{Kind: types.DateKind}
	}
	return stringType
}

// typ returns the STRUCT of the fields seen, or a MAP<STRING, T> when there
// are more distinct keys than the threshold (T the widening of every
// value). Fields whose names differ only in case from an earlier one are
// left out (Spark's names are case-insensitive); dropped lists them.
func (o *object) typ(r typeRules) types.Type {
	if r.mapThreshold > 0 && len(o.names) > r.mapThreshold {
		v := &node{}
		for _, name := range o.names {
			v.merge(o.fields[name])
		}
		return types.MapOf(stringType, v.typ(r), true)
	}
	return o.structType(r)
}

// structType returns the STRUCT of the fields seen (the columns, for the
// root object, which never becomes a MAP).
func (o *object) structType(r typeRules) types.Type {
	var fields []types.Field
	seen := map[string]bool{}
	for _, name := range o.names {
		if k := strings.ToLower(name); !seen[k] {
			seen[k] = true
			fields = append(fields, types.Field{Name: name, Type: o.fields[name].typ(r), Nullable: true})
		}
	}
	return types.StructOf(fields...)
}
