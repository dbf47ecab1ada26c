package source

import (
	"bytes"
	"errors"
	"io"
	"os"
)

// chunkSize is the size of the buffers a decoder reads into once a file
// turns out large; buffers start at firstChunk and double up to it. A record
// longer than a buffer grows the buffer.
const (
	firstChunk = 64 << 10
	chunkSize  = 8 << 20
)

// wholeFileLimit is the largest input of known size read into one buffer.
const wholeFileLimit = 256 << 20

// input reads a file into buffers that are never reused or written once data
// is in them, so strings aliasing them stay valid (see the package doc's
// lifetime rule). Each refill allocates a new buffer holding the unconsumed
// tail and fresh data.
type input struct {
	r        io.Reader
	buf      []byte // data read so far; the unconsumed part starts at pos
	pos      int
	eof      bool
	err      error // read error other than io.EOF
	first    int   // size of the first buffer when the input's size is known
	chunk    int   // size of the next buffer
	maxChunk int   // chunk doubles up to this
	bom      bool  // BOM check done
}

func newInput(r io.Reader) input {
	in := input{r: r, chunk: firstChunk, maxChunk: chunkSize}
	size := int64(-1)
	switch r := r.(type) {
	case *os.File:
		if st, err := r.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	case interface{ Len() int }: // bytes.Reader, strings.Reader, bytes.Buffer
		size = int64(r.Len())
	}
	if size >= 0 && size < wholeFileLimit {
		in.first = int(size) + 1 // +1 so one read sees EOF
	}
	return in
}

// setChunk fixes the buffer size, for tests that make records straddle
// refills.
func (in *input) setChunk(n int) { in.first, in.chunk, in.maxChunk = 0, n, n }

// fill allocates a new buffer holding buf[pos:] and reads more data after
// it, at least one chunk or twice the tail, so a long record costs
// amortised linear time. It reports whether any new data arrived.
func (in *input) fill() bool {
	if in.eof {
		return false
	}
	tail := len(in.buf) - in.pos
	size := in.chunk
	if in.first > 0 {
		size, in.first = in.first, 0
	} else {
		in.chunk = min(2*in.chunk, in.maxChunk)
	}
	size = max(size, 2*tail, tail+1)
	nb := make([]byte, tail, size)
	copy(nb, in.buf[in.pos:])
	in.buf, in.pos = nb, 0
	got := false
	for len(in.buf) < cap(in.buf) {
		n, err := in.r.Read(in.buf[len(in.buf):cap(in.buf)])
		in.buf = in.buf[:len(in.buf)+n]
		got = got || n > 0
		if err != nil {
			in.eof = true
			if !errors.Is(err, io.EOF) {
				in.err = err
			}
			break
		}
	}
	if !in.bom && (len(in.buf) >= 3 || in.eof) {
		in.bom = true
		in.buf = bytes.TrimPrefix(in.buf, []byte("\xef\xbb\xbf"))
	}
	return got
}

// nextLine returns the next line without its '\n' (a '\r' before it is
// kept), or ok false at the end of input. The last line need not end in
// '\n'.
func (in *input) nextLine() (line []byte, ok bool) {
	for {
		if i := bytes.IndexByte(in.buf[in.pos:], '\n'); i >= 0 {
			line = in.buf[in.pos : in.pos+i]
			in.pos += i + 1
			return line, true
		}
		if !in.fill() && in.eof {
			if in.pos < len(in.buf) {
				line = in.buf[in.pos:]
				in.pos = len(in.buf)
				return line, true
			}
			return nil, false
		}
	}
}
