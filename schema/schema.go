// Package schema holds pipegen.schema.json, the JSON Schema (draft 2020-12)
// that is the one description of the pipeline spec's YAML shape, embedded
// and compiled once. The spec loader validates every YAML document with it,
// `pipegen schema` prints it for editors (yaml-language-server), and
// docs/spec.md is generated from its descriptions.
//
// Validate works on JSON values (map[string]any, []any, string, bool,
// json.Number, nil) and reports violations by instance path; package spec
// converts YAML to such values and maps each path back to file:line:col.
package schema

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// JSON is the schema document, as embedded.
//
//go:embed pipegen.schema.json
var JSON []byte

// URL is the schema's $id.
const URL = "https://pipegen.dev/schema/pipegen.schema.json"

// Document kinds accepted by Validate.
const (
	// MainFile is a pipeline's main spec file (the schema's root).
	MainFile = ""
	// LibraryFile is a file listed under `libraries:` ($defs/library).
	LibraryFile = "#/$defs/library"
)

var (
	once     sync.Once
	compiled map[string]*jsonschema.Schema
	raw      map[string]any
	initErr  error
)

func load() {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSON))
	if err != nil {
		initErr = fmt.Errorf("schema: parse pipegen.schema.json: %w", err)
		return
	}
	raw, _ = doc.(map[string]any)
	c := jsonschema.NewCompiler()
	if err := c.AddResource(URL, doc); err != nil {
		initErr = fmt.Errorf("schema: add pipegen.schema.json: %w", err)
		return
	}
	compiled = map[string]*jsonschema.Schema{}
	for _, frag := range []string{MainFile, LibraryFile} {
		s, err := c.Compile(URL + frag)
		if err != nil {
			initErr = fmt.Errorf("schema: compile pipegen.schema.json%s: %w", frag, err)
			return
		}
		compiled[frag] = s
	}
}

// Document returns the schema parsed as JSON values (numbers as
// json.Number). Callers must not modify it.
func Document() (map[string]any, error) {
	once.Do(load)
	return raw, initErr
}

// Violation is one way a document does not fit the schema.
type Violation struct {
	// Path is the JSON pointer of the offending value as its tokens (keys
	// and decimal array indexes); empty for the document itself.
	Path []string
	// Key, when not empty, is an object key at Path that is not allowed;
	// the violation is about the key itself, not its value.
	Key string
	// Allowed lists the keys allowed at Path when Key is set, for
	// did-you-mean suggestions.
	Allowed []string
	// Got is the offending string value of an enum violation, and Allowed
	// then lists the strings the enum allows.
	Got string
	// Message is lower-case and names the thing, e.g.
	// `"format" must be one of json, csv, parquet, got "xml"`.
	Message string
}

// Validate checks doc against the schema of the given document kind
// (MainFile or LibraryFile) and returns every violation, sorted by path. An
// error is returned only when the embedded schema itself is broken.
func Validate(doc any, docKind string) ([]Violation, error) {
	once.Do(load)
	if initErr != nil {
		return nil, initErr
	}
	s := compiled[docKind]
	if s == nil {
		return nil, fmt.Errorf("schema: unknown document kind %q", docKind)
	}
	err := s.Validate(doc)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, fmt.Errorf("schema: validate: %w", err)
	}
	var out []Violation
	collect(ve, doc, &out)
	sort.SliceStable(out, func(i, j int) bool {
		return strings.Join(out[i].Path, "/")+"/"+out[i].Key < strings.Join(out[j].Path, "/")+"/"+out[j].Key
	})
	return dedupe(out), nil
}

var printer = message.NewPrinter(language.English)

// collect flattens a validation error tree into violations.
func collect(e *jsonschema.ValidationError, doc any, out *[]Violation) {
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range e.Causes {
			collect(c, doc, out)
		}
		return
	case *kind.AnyOf, *kind.OneOf:
		collectAlternatives(e, doc, out)
		return
	case *kind.AdditionalProperties:
		allowed := allowedKeys(e.SchemaURL)
		for _, p := range k.Properties {
			*out = append(*out, Violation{
				Path: e.InstanceLocation, Key: p, Allowed: allowed,
				Message: fmt.Sprintf("unknown key %q %s", p, where(e.InstanceLocation)),
			})
		}
		return
	case *kind.PropertyNames:
		// jsonschema/v6 shares the validator's location slice with this
		// error, so the location may have been overwritten: find the
		// object holding the key instead.
		loc := e.InstanceLocation
		if m, ok := valueAt(doc, loc).(map[string]any); !ok || m[k.Property] == nil {
			loc = findKey(doc, k.Property, nil)
		}
		*out = append(*out, Violation{
			Path: loc, Key: k.Property,
			Message: fmt.Sprintf("invalid name %q %s: use letters, digits and underscores, not starting with a digit", k.Property, where(loc)),
		})
		return
	case *kind.Required:
		for _, m := range k.Missing {
			*out = append(*out, Violation{
				Path:    e.InstanceLocation,
				Message: fmt.Sprintf("missing required key %q %s", m, where(e.InstanceLocation)),
			})
		}
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, doc, out)
		}
		return
	}
	v := Violation{Path: e.InstanceLocation, Message: leafMessage(e, doc)}
	if k, ok := e.ErrorKind.(*kind.Enum); ok {
		v.Got, _ = valueAt(doc, e.InstanceLocation).(string)
		for _, w := range k.Want {
			if s, ok := w.(string); ok {
				v.Allowed = append(v.Allowed, s)
			}
		}
	}
	*out = append(*out, v)
}

// collectAlternatives reports an anyOf/oneOf failure. When exactly one
// alternative accepts the value's JSON type, its violations are the useful
// ones; otherwise the value is reported as not one of the expected shapes.
func collectAlternatives(e *jsonschema.ValidationError, doc any, out *[]Violation) {
	var fitting []*jsonschema.ValidationError
	for _, c := range e.Causes {
		if !typeMismatchAt(c, e.InstanceLocation) {
			fitting = append(fitting, c)
		}
	}
	if len(fitting) == 1 {
		collect(fitting[0], doc, out)
		return
	}
	var shapes []string
	for _, c := range e.Causes {
		shapes = append(shapes, describeAlternative(c))
	}
	*out = append(*out, Violation{
		Path:    e.InstanceLocation,
		Message: fmt.Sprintf("invalid %s: must be %s, got %s", subject(e.InstanceLocation), strings.Join(shapes, " or "), show(valueAt(doc, e.InstanceLocation))),
	})
}

// typeMismatchAt reports whether e (an alternative's failure) rejects the
// value at loc for its type or its enum, i.e. the alternative does not fit
// the value's shape at all.
func typeMismatchAt(e *jsonschema.ValidationError, loc []string) bool {
	if len(e.InstanceLocation) == len(loc) {
		switch e.ErrorKind.(type) {
		case *kind.Type, *kind.Enum, *kind.Const:
			return true
		}
	}
	for _, c := range e.Causes {
		if typeMismatchAt(c, loc) {
			return true
		}
	}
	return false
}

func describeAlternative(e *jsonschema.ValidationError) string {
	switch k := e.ErrorKind.(type) {
	case *kind.Enum:
		return enumList(k.Want)
	case *kind.Type:
		return article(strings.Join(k.Want, " or "))
	}
	for _, c := range e.Causes {
		if d := describeAlternative(c); d != "" {
			return d
		}
	}
	return "an object"
}

func leafMessage(e *jsonschema.ValidationError, doc any) string {
	loc := e.InstanceLocation
	got := valueAt(doc, loc)
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		return fmt.Sprintf("%s must be %s, got %s", subject(loc), article(strings.Join(k.Want, " or ")), show(got))
	case *kind.Enum:
		return fmt.Sprintf("%s must be %s, got %s", subject(loc), enumList(k.Want), show(got))
	case *kind.Pattern:
		if strings.HasSuffix(e.SchemaURL, "/identifier") || strings.HasSuffix(e.SchemaURL, "/propertyNames") {
			return fmt.Sprintf("%s must be a name of letters, digits and underscores, not starting with a digit, got %s", subject(loc), show(got))
		}
		if looksDuration(e.SchemaURL) {
			return fmt.Sprintf("%s must be a duration such as 30s, 15m or 1h30m, got %s", subject(loc), show(got))
		}
		if looksSize(e.SchemaURL) {
			return fmt.Sprintf("%s must be a size such as 512mb or 1g, got %s", subject(loc), show(got))
		}
		return fmt.Sprintf("%s must match %s, got %s", subject(loc), k.Want, show(got))
	case *kind.MinLength:
		if k.Want == 1 {
			return fmt.Sprintf("%s must not be empty", subject(loc))
		}
		return fmt.Sprintf("%s must be at least %d characters long", subject(loc), k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("%s must be at most %d character(s) long, got %s", subject(loc), k.Want, show(got))
	case *kind.MinItems:
		return fmt.Sprintf("%s must have at least %d item(s)", subject(loc), k.Want)
	case *kind.Minimum:
		return fmt.Sprintf("%s must be at least %s, got %s", subject(loc), k.Want.RatString(), show(got))
	}
	return fmt.Sprintf("%s: %s", subject(loc), e.ErrorKind.LocalizedString(printer))
}

func looksDuration(url string) bool { return strings.Contains(url, "/duration") }
func looksSize(url string) bool     { return strings.Contains(url, "/size") }

// subject names the value at loc for a message: `"format" of sources.raw.files`
// reads badly, so the last key is quoted and its parents given as a dotted path.
func subject(loc []string) string {
	if len(loc) == 0 {
		return "the document"
	}
	last := loc[len(loc)-1]
	if _, err := strconv.Atoi(last); err == nil && len(loc) > 1 {
		return fmt.Sprintf("item %s of %q", last, strings.Join(loc[:len(loc)-1], "."))
	}
	return strconv.Quote(strings.Join(loc, "."))
}

// where names the object at loc, e.g. `in "sources.raw.files"`.
func where(loc []string) string {
	if len(loc) == 0 {
		return "at the top level"
	}
	return "in " + strconv.Quote(strings.Join(loc, "."))
}

func article(s string) string {
	switch {
	case s == "":
		return s
	case strings.ContainsRune("aeiou", rune(s[0])):
		return "an " + s
	}
	return "a " + s
}

func enumList(want []any) string {
	var parts []string
	for _, w := range want {
		parts = append(parts, fmt.Sprint(w))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "one of " + strings.Join(parts, ", ")
}

// show renders a JSON value for a message.
func show(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(v)
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	}
	return fmt.Sprint(v)
}

// findKey returns the path of the first object (in key order) under v that
// has key, or nil.
func findKey(v any, key string, path []string) []string {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x[key]; ok {
			return path
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p := findKey(x[k], key, append(append([]string(nil), path...), k)); p != nil {
				return p
			}
		}
	case []any:
		for i, c := range x {
			if p := findKey(c, key, append(append([]string(nil), path...), strconv.Itoa(i))); p != nil {
				return p
			}
		}
	}
	return nil
}

func valueAt(doc any, loc []string) any {
	v := doc
	for _, tok := range loc {
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// allowedKeys returns the property names the schema at url (an absolute
// schema location ending in "#/json/pointer") allows.
func allowedKeys(url string) []string {
	_, frag, _ := strings.Cut(url, "#")
	var node any = raw
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := node.(type) {
		case map[string]any:
			node = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			node = x[i]
		default:
			return nil
		}
	}
	obj, _ := node.(map[string]any)
	props, _ := obj["properties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func dedupe(vs []Violation) []Violation {
	seen := map[string]bool{}
	out := vs[:0]
	for _, v := range vs {
		k := strings.Join(v.Path, "/") + "\x00" + v.Key + "\x00" + v.Message
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, v)
	}
	return out
}
