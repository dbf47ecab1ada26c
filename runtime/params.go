package runtime

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
)

// Params are the pipeline parameters bound for one update: the spec's
// defaults overridden by `--param name=value`.
type Params struct {
	values map[string]string
	types  map[string]ParamType
}

// bindParams checks overrides against the declared parameters and returns
// the bound values. Errors name the parameter and say what is expected.
func bindParams(decl []Param, overrides []string) (*Params, error) {
	p := &Params{values: map[string]string{}, types: map[string]ParamType{}}
	names := make([]string, 0, len(decl))
	for _, d := range decl {
		p.types[d.Name] = d.Type
		if d.HasDefault {
			p.values[d.Name] = d.Default
		}
		names = append(names, d.Name)
	}
	for _, o := range overrides {
		k, v, ok := strings.Cut(o, "=")
		if !ok {
			return nil, fmt.Errorf("--param %q: want name=value", o)
		}
		if _, known := p.types[k]; !known {
			sort.Strings(names)
			return nil, fmt.Errorf("--param %s: the pipeline has no parameter %q (parameters: %s)", o, k, strings.Join(names, ", "))
		}
		p.values[k] = v
	}
	for _, d := range decl {
		v, ok := p.values[d.Name]
		if !ok {
			return nil, fmt.Errorf("parameter %q has no default: pass --param %s=VALUE", d.Name, d.Name)
		}
		if err := checkParam(d.Type, v); err != nil {
			return nil, fmt.Errorf("parameter %s=%q: %w", d.Name, v, err)
		}
	}
	return p, nil
}

func checkParam(t ParamType, v string) error {
	switch t {
	case IntParam:
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return fmt.Errorf("not an int")
		}
	case BoolParam:
		if _, err := strconv.ParseBool(v); err != nil {
			return fmt.Errorf("not a bool (true or false)")
		}
	case DurationParam:
		if _, err := time.ParseDuration(v); err != nil {
			return fmt.Errorf("not a duration such as 15m or 1h30m")
		}
	}
	return nil
}

// String returns the value of a parameter (any type) as text.
func (p *Params) String(name string) string { return p.values[name] }

// Int returns an int parameter.
func (p *Params) Int(name string) int64 {
	v, _ := strconv.ParseInt(p.values[name], 10, 64)
	return v
}

// Bool returns a bool parameter.
func (p *Params) Bool(name string) bool {
	v, _ := strconv.ParseBool(p.values[name])
	return v
}

// Interval returns a duration parameter as an INTERVAL value (µs).
func (p *Params) Interval(name string) types.Interval {
	d, _ := time.ParseDuration(p.values[name])
	return types.Interval(d.Microseconds())
}

// Expand replaces every ${name} in s with the parameter's value. An unknown
// parameter is an error (pipegen checks them at build time, so this only
// fails for hand-edited programs).
func (p *Params) Expand(s string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("unterminated ${ in %q", s)
		}
		name := s[i+2 : i+j]
		v, ok := p.values[name]
		if !ok {
			return "", fmt.Errorf("unknown parameter ${%s} in %q", name, s)
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+j+1:]
	}
}
