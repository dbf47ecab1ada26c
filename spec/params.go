package spec

import (
	"strings"
	"time"
)

// This file resolves parameters and `${name}` references in strings.

// resolveParams builds the typed parameters.
func (r *resolver) resolveParams() {
	for _, d := range r.ast.Parameters {
		p := &Parameter{Name: d.Name.Value, Pos: d.Name.Pos, Description: d.Description.Value}
		switch d.Type.Value {
		case "int":
			p.Type = IntParam
		case "bool":
			p.Type = BoolParam
		case "duration":
			p.Type = DurationParam
		}
		if d.Default.Set() {
			p.Default = r.paramDefault(p, d)
		}
		r.params[strings.ToLower(p.Name)] = p
		r.paramNames = append(r.paramNames, p.Name)
		r.p.Parameters = append(r.p.Parameters, p)
	}
}

// paramDefault converts a parameter's default to its type's Go value.
func (r *resolver) paramDefault(p *Parameter, d *ParamDecl) any {
	v := d.Default
	switch p.Type {
	case IntParam:
		if d.DefaultTag == "!!int" {
			if n, ok := parseInt(v.Value); ok {
				return n
			}
		}
		r.errorf(v.Pos, "", "", "default of int parameter %q must be an integer, got %q", p.Name, v.Value)
	case BoolParam:
		if d.DefaultTag == "!!bool" {
			return v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
		}
		r.errorf(v.Pos, "", "write true or false", "default of bool parameter %q must be a boolean, got %q", p.Name, v.Value)
	case DurationParam:
		dur, err := time.ParseDuration(v.Value)
		if err == nil {
			return dur
		}
		r.errorf(v.Pos, "", "write a Go duration such as 30s, 15m or 1h30m", "default of duration parameter %q is not a duration: %q", p.Name, v.Value)
	default:
		// A number or boolean default of a string parameter is its text.
		return v.Value
	}
	return nil
}

func parseInt(s string) (int64, bool) {
	var n int64
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return 0, false
	}
	for _, c := range strings.ReplaceAll(s, "_", "") {
		if c < '0' || c > '9' || n > (1<<62)/10 {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// template parses the `${name}` references of s, reporting unknown
// parameters at their exact position. `$${` is a literal `${`.
func (r *resolver) template(s Str) Template {
	var t Template
	text := s.Value
	var lit strings.Builder
	for i := 0; i < len(text); {
		switch {
		case strings.HasPrefix(text[i:], "$${"):
			lit.WriteString("${")
			i += 3
		case strings.HasPrefix(text[i:], "${"):
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				r.errorf(s.PosAt(i), "", "write ${name}, or $${ for a literal ${", "unterminated parameter reference")
				lit.WriteString(text[i:])
				i = len(text)
				continue
			}
			name := strings.TrimSpace(text[i+2 : i+end])
			if r.checkParamRef(s, i, name) {
				if lit.Len() > 0 {
					t.Parts = append(t.Parts, TemplatePart{Text: lit.String()})
					lit.Reset()
				}
				t.Parts = append(t.Parts, TemplatePart{Param: r.params[strings.ToLower(name)].Name})
			}
			i += end + 1
		default:
			lit.WriteByte(text[i])
			i++
		}
	}
	if lit.Len() > 0 {
		t.Parts = append(t.Parts, TemplatePart{Text: lit.String()})
	}
	return t
}

// checkParamRef reports a reference to an unknown parameter written at
// byte offset off of s; it returns whether the parameter exists.
func (r *resolver) checkParamRef(s Str, off int, name string) bool {
	if _, ok := r.params[strings.ToLower(name)]; ok {
		return true
	}
	pos := s.PosAt(off)
	r.paramErrPos[pos] = true
	hint := didYouMean(name, r.paramNames)
	if hint == "" {
		hint = "declare it under parameters:"
	}
	r.errorf(pos, "UNKNOWN_PARAMETER", hint, "unknown parameter %q", name)
	return false
}

// checkSQLParams reports `${name}` references to unknown parameters in a
// SQL text; sql reads known ones as parameter values (sql.ParamRef).
func (r *resolver) checkSQLParams(s Str) {
	text := s.Value
	for i := 0; i < len(text); i++ {
		if !strings.HasPrefix(text[i:], "${") {
			continue
		}
		end := strings.IndexByte(text[i:], '}')
		if end < 0 {
			return
		}
		r.checkParamRef(s, i, strings.TrimSpace(text[i+2:i+end]))
		i += end
	}
}
