package spec

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// This file maps byte offsets inside a scalar's value (where package sql
// reports its errors) to the line and column of the YAML file the value was
// written in. yaml.v3 gives a scalar's start position and style; the value
// is aligned with the scalar's raw source lines, which handles plain
// (multi-line, folded), single- and double-quoted (escapes, folded line
// breaks), literal (`|`, `|-`, `|+`, `|2`) and folded (`>`, `>-`) scalars.

// srcUnit is one byte of a scalar's value as the source spells it.
type srcUnit struct {
	b    byte
	line int
	col  int
	// fold marks source whitespace (line breaks, indentation, spaces
	// around a fold) that the value may drop or turn into one space or
	// line break.
	fold bool
}

// PosAt returns the position in the spec file of byte offset off of the
// scalar's value. Offsets at or past the end map just past the last
// character; a Str that was not read from a file returns its Pos.
func (s Str) PosAt(off int) Pos {
	if s.parent != nil {
		return s.parent.PosAt(s.shift + off)
	}
	if s.node == nil || s.file == nil || s.Pos.Line == 0 {
		return s.Pos
	}
	pos := s.offsets()
	if len(pos) == 0 {
		return s.Pos
	}
	switch {
	case off <= 0:
		return pos[0]
	case off >= len(pos):
		p := pos[len(pos)-1]
		p.Col++
		return p
	}
	return pos[off]
}

// offsets returns the position of every byte of s.Value.
func (s Str) offsets() []Pos {
	units := s.sourceUnits()
	val := s.Value
	out := make([]Pos, len(val))
	at := func(u srcUnit) Pos { return Pos{File: s.file.Path, Line: u.line, Col: u.col} }
	j := 0
	for i := 0; i < len(val); i++ {
		vb := val[i]
		vws := vb == ' ' || vb == '\n' || vb == '\t'
		for {
			if j >= len(units) {
				if i > 0 {
					out[i] = out[i-1]
				} else {
					out[i] = s.Pos
				}
				break
			}
			u := units[j]
			if u.b == vb {
				out[i] = at(u)
				j++
				break
			}
			if u.fold {
				if vws {
					out[i] = at(u)
					j++
					break
				}
				j++
				continue
			}
			// The value has a byte the source does not (or alignment
			// was lost): map it to the next source byte.
			out[i] = at(u)
			if !vws {
				j++
			}
			break
		}
	}
	return out
}

// sourceUnits reads the scalar's raw source from the file.
func (s Str) sourceUnits() []srcUnit {
	n, lines := s.node, s.file.lines
	line, col := n.Line, n.Column // 1-based
	if line < 1 || line > len(lines) {
		return nil
	}
	// Skip a tag (!!str) or an anchor (&a) written before the scalar.
	for {
		r := runesFrom(lines[line-1], col)
		if len(r) == 0 || (r[0] != '!' && r[0] != '&') {
			break
		}
		k := 0
		for k < len(r) && r[k] != ' ' && r[k] != '\t' {
			k++
		}
		for k < len(r) && (r[k] == ' ' || r[k] == '\t') {
			k++
		}
		if k >= len(r) {
			line, col = line+1, 1
			for line <= len(lines) && strings.TrimSpace(lines[line-1]) == "" {
				line++
			}
			if line > len(lines) {
				return nil
			}
			col = len([]rune(lines[line-1])) - len([]rune(strings.TrimLeft(lines[line-1], " "))) + 1
			continue
		}
		col += k
	}
	switch {
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return s.blockUnits(line)
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return quotedUnits(lines, line, col+1, '"', len(s.Value))
	case n.Style&yaml.SingleQuotedStyle != 0:
		return quotedUnits(lines, line, col+1, '\'', len(s.Value))
	}
	return plainUnits(lines, line, col, len(s.Value))
}

// runesFrom returns the runes of line from 1-based rune column col.
func runesFrom(line string, col int) []rune {
	r := []rune(line)
	if col < 1 || col > len(r) {
		return nil
	}
	return r[col-1:]
}

// appendRune adds the bytes of r at line:col.
func appendRune(units []srcUnit, r rune, line, col int, fold bool) []srcUnit {
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	for _, b := range buf[:n] {
		units = append(units, srcUnit{b: b, line: line, col: col, fold: fold})
	}
	return units
}

// plainUnits reads a plain scalar starting at line:col. Every space and
// line break may fold; the value is at most need bytes, which bounds how
// far to read.
func plainUnits(lines []string, line, col, need int) []srcUnit {
	var units []srcUnit
	content := 0
	for ln := line; ln <= len(lines) && content < need; ln++ {
		start := 1
		if ln == line {
			start = col
		}
		for k, r := range runesFrom(lines[ln-1], start) {
			ws := r == ' ' || r == '\t'
			units = appendRune(units, r, ln, start+k, ws)
			if !ws {
				content += utf8.RuneLen(r)
			}
		}
		units = append(units, srcUnit{b: '\n', line: ln, col: len([]rune(lines[ln-1])) + 1, fold: true})
		content++
	}
	return units
}

// quotedUnits reads a single- or double-quoted scalar whose content starts
// at line:col, decoding escapes (” in single quotes; \x escapes in double
// quotes) into the bytes they stand for, at the escape's position.
func quotedUnits(lines []string, line, col int, quote rune, need int) []srcUnit {
	var units []srcUnit
	content := 0
	for ln := line; ln <= len(lines); ln++ {
		start := 1
		if ln == line {
			start = col
		}
		r := runesFrom(lines[ln-1], start)
		for k := 0; k < len(r); k++ {
			c, cc := r[k], start+k
			switch {
			case c == quote && quote == '\'' && k+1 < len(r) && r[k+1] == '\'':
				units = appendRune(units, '\'', ln, cc, false)
				k++
			case c == quote:
				return units
			case c == '\\' && quote == '"' && k+1 < len(r):
				dec, width := decodeEscape(r[k+1:])
				for _, d := range dec {
					units = appendRune(units, d, ln, cc, false)
				}
				k += width
			case c == '\\' && quote == '"':
				// An escaped line break: the break and the next line's
				// leading spaces are dropped.
				units = append(units, srcUnit{b: '\\', line: ln, col: cc, fold: true})
			default:
				ws := c == ' ' || c == '\t'
				units = appendRune(units, c, ln, cc, ws)
			}
			content++
		}
		units = append(units, srcUnit{b: '\n', line: ln, col: len([]rune(lines[ln-1])) + 1, fold: true})
		if content > need+len(lines[ln-1]) {
			break
		}
	}
	return units
}

// decodeEscape decodes the YAML double-quoted escape whose letter starts r
// (after the backslash) and returns the runes it stands for and how many
// runes of r it used.
func decodeEscape(r []rune) ([]rune, int) {
	simple := map[rune]rune{'0': 0, 'a': '\a', 'b': '\b', 't': '\t', '\t': '\t', 'n': '\n', 'v': '\v', 'f': '\f',
		'r': '\r', 'e': 0x1b, ' ': ' ', '"': '"', '/': '/', '\\': '\\', 'N': 0x85, '_': 0xa0, 'L': 0x2028, 'P': 0x2029}
	if d, ok := simple[r[0]]; ok {
		return []rune{d}, 1
	}
	width := map[rune]int{'x': 2, 'u': 4, 'U': 8}[r[0]]
	if width == 0 || len(r) < 1+width {
		return []rune{r[0]}, 1
	}
	v, err := strconv.ParseUint(string(r[1:1+width]), 16, 32)
	if err != nil {
		return []rune{r[0]}, 1
	}
	return []rune{rune(v)}, 1 + width
}

// blockUnits reads a literal or folded block scalar whose header (`|`,
// `>-`, ...) is on line header: its content lines with the block's
// indentation removed.
func (s Str) blockUnits(header int) []srcUnit {
	lines := s.file.lines
	first := header // 0-based index of the first content line
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	if first >= len(lines) {
		return nil
	}
	lead := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	v := strings.TrimLeft(s.Value, "\n")
	indent := lead(lines[first]) - lead(v)
	if indent < 0 {
		indent = lead(lines[first])
	}
	var units []srcUnit
	for ln := header + 1; ln <= len(lines); ln++ {
		l := lines[ln-1]
		if strings.TrimSpace(l) != "" && lead(l) < indent {
			break
		}
		if len(l) > indent {
			for k, r := range []rune(l[indent:]) {
				units = appendRune(units, r, ln, indent+k+1, false)
			}
		}
		units = append(units, srcUnit{b: '\n', line: ln, col: len([]rune(l)) + 1, fold: true})
	}
	return units
}
