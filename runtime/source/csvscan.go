package source

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// physicalLine returns the physical line holding record offset off, its
// 1-based number and off's offset in it.
func (d *CSVDecoder) physicalLine(off int) (line []byte, lineNo, lineOff int) {
	off = min(off, len(d.rec))
	start := bytes.LastIndexByte(d.rec[:off], '\n') + 1
	end := bytes.IndexByte(d.rec[start:], '\n')
	if end < 0 {
		end = len(d.rec)
	} else {
		end += start
	}
	return d.rec[start:end], d.recLine + bytes.Count(d.rec[:start], []byte{'\n'}), off - start
}

// scanRecord reads the next record into d.rec and d.fields. ok is false at
// the end of input. A malformed record is returned with a message and the
// record offset where the problem is.
func (d *CSVDecoder) scanRecord() (ok bool, malformedMsg string, at int) {
	for {
		res, msg, at := d.scan()
		switch res {
		case scanRecord:
			return true, msg, at
		case scanEnd:
			return false, "", 0
		}
		if !d.in.fill() && d.in.eof && d.in.err != nil {
			return false, "", 0
		}
	}
}

const (
	scanRecord = iota
	scanEnd
	scanMore // the buffer ends inside the record: read more and rescan
)

// scan parses one record from the input buffer.
func (d *CSVDecoder) scan() (res int, malformedMsg string, at int) {
	buf, eof := d.in.buf, d.in.eof
	i := d.in.pos
	lines := 0
	// Skip empty lines.
	for {
		if i >= len(buf) {
			if eof {
				d.in.pos = i
				d.lineNo += lines
				return scanEnd, "", 0
			}
			return scanMore, "", 0
		}
		if buf[i] == '\n' {
			i++
			lines++
			continue
		}
		if buf[i] == '\r' {
			if i+1 >= len(buf) && !eof {
				return scanMore, "", 0
			}
			if i+1 >= len(buf) || buf[i+1] == '\n' {
				i = min(i+2, len(buf))
				lines++
				continue
			}
		}
		if c := d.copts.Comment; c != 0 && buf[i] == c {
			end := bytes.IndexByte(buf[i:], '\n')
			if end < 0 {
				if !eof {
					return scanMore, "", 0
				}
				i = len(buf)
				continue
			}
			i += end + 1
			lines++
			continue
		}
		break
	}
	start := i
	delim, quote, escape := d.copts.Delimiter, d.copts.Quote, d.copts.Escape
	if escape == quote {
		escape = 0
	}
	d.fields = d.fields[:0]
	recLines := 0 // line breaks inside the record
	lead, trail := d.copts.IgnoreLeadingWhiteSpace, d.copts.IgnoreTrailingWhiteSpace
	for {
		if lead {
			for i < len(buf) && d.isBlank(buf[i]) {
				i++
			}
		}
		f := csvField{off: i - start}
		if quote != 0 && i < len(buf) && buf[i] == quote {
			f.quoted = true
			i++
			fs := i
			for {
				for i < len(buf) && buf[i] != quote && buf[i] != escape && buf[i] != '\n' {
					i++
				}
				if i >= len(buf) {
					if !eof {
						return scanMore, "", 0
					}
					d.takeRecord(buf, start, len(buf), lines, recLines)
					return scanRecord, "unterminated quoted field", f.off
				}
				c := buf[i]
				if c == '\n' {
					if d.copts.SingleLine {
						d.takeRecord(buf, start, i+1, lines, recLines+1)
						return scanRecord, "unterminated quoted field (multi_line is false: a quoted value cannot span lines)", f.off
					}
					recLines++
					i++
					continue
				}
				if i+1 >= len(buf) && !eof {
					return scanMore, "", 0
				}
				next := byte(0)
				if i+1 < len(buf) {
					next = buf[i+1]
				}
				if c != quote { // the escape character (or NUL when there is none)
					if c == escape && escape != 0 && next == quote {
						f.escaped = true
						i += 2
					} else {
						i++
					}
					continue
				}
				if next == quote { // doubled quote
					f.escaped = true
					i += 2
					continue
				}
				f.text = buf[fs:i]
				i++
				break
			}
			if trail {
				for i < len(buf) && d.isBlank(buf[i]) {
					i++
				}
			}
		} else {
			fs := i
			for i < len(buf) && buf[i] != delim && buf[i] != '\n' {
				i++
			}
			if i >= len(buf) && !eof {
				return scanMore, "", 0
			}
			f.text = buf[fs:i]
			if i >= len(buf) || buf[i] == '\n' {
				f.text = bytes.TrimSuffix(f.text, []byte{'\r'})
			}
			if trail {
				for n := len(f.text); n > 0 && d.isBlank(f.text[n-1]); n-- {
					f.text = f.text[:n-1]
				}
			}
		}
		d.fields = append(d.fields, f)
		// After a field: a delimiter, the end of the record, or an error.
		switch {
		case i >= len(buf):
			if !eof {
				return scanMore, "", 0
			}
			d.takeRecord(buf, start, i, lines, recLines)
			return scanRecord, "", 0
		case buf[i] == delim:
			i++
			continue
		case buf[i] == '\n':
			d.takeRecord(buf, start, i+1, lines, recLines+1)
			return scanRecord, "", 0
		case buf[i] == '\r' && (i+1 >= len(buf) || buf[i+1] == '\n'):
			if i+1 >= len(buf) && !eof {
				return scanMore, "", 0
			}
			d.takeRecord(buf, start, min(i+2, len(buf)), lines, recLines+1)
			return scanRecord, "", 0
		}
		// Text after a closing quote: the record runs to the end of the line.
		at := i - start
		end := bytes.IndexByte(buf[i:], '\n')
		if end < 0 {
			if !eof {
				return scanMore, "", 0
			}
			end = len(buf)
		} else {
			end += i + 1
			recLines++
		}
		d.takeRecord(buf, start, end, lines, recLines)
		return scanRecord, fmt.Sprintf("unexpected %q after a closing quote", truncate(buf[i:min(i+1, len(buf))], 4)), at
	}
}

// isBlank reports whether c is white space that the ignore*WhiteSpace
// options drop: a byte up to ' ' other than a line break or the delimiter.
func (d *CSVDecoder) isBlank(c byte) bool {
	return c <= ' ' && c != '\n' && c != '\r' && c != d.copts.Delimiter
}

// takeRecord makes buf[start:end] the current record and consumes it.
func (d *CSVDecoder) takeRecord(buf []byte, start, end, skipped, recLines int) {
	d.rec = buf[start:end]
	d.recASCII = isASCII(d.rec)
	d.recLine = d.lineNo + skipped + 1
	d.lineNo += skipped + recLines
	d.in.pos = end
}

// isASCII reports whether b has no byte above 0x7f, eight bytes at a time.
func isASCII(b []byte) bool {
	var acc uint64
	for len(b) >= 8 {
		acc |= binary.LittleEndian.Uint64(b)
		b = b[8:]
	}
	for _, c := range b {
		acc |= uint64(c)
	}
	return acc&0x8080808080808080 == 0
}

// unquote returns a field's text with doubled and escaped quotes undone.
// The bytes are in the arena when they had to be rewritten.
func (d *CSVDecoder) unquote(f *csvField) []byte {
	if !f.escaped {
		return f.text
	}
	quote, escape := d.copts.Quote, d.copts.Escape
	d.arena.reserve(len(f.text))
	m := d.arena.mark()
	t := f.text
	for i := 0; i < len(t); i++ {
		c := t[i]
		if (c == quote || c == escape && escape != 0) && i+1 < len(t) && t[i+1] == quote {
			i++
			c = quote
		}
		d.arena.buf = append(d.arena.buf, c)
	}
	return d.arena.bytesFrom(m)
}
