package source

import "unsafe"

// arena holds the bytes of strings and byte slices the decoders had to build
// (unescaped JSON strings, compacted raw JSON, decoded base64, CSV fields with
// doubled quotes). Bytes handed out are never written again: a full arena is
// replaced by a new one, never reset, so the values stay valid for as long as
// they are referenced.
type arena struct {
	buf []byte
}

const arenaChunk = 64 << 10

// reserve makes room for n more bytes.
func (a *arena) reserve(n int) {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, max(arenaChunk, n))
	}
}

// mark returns the current end, for stringFrom/bytesFrom after appending.
func (a *arena) mark() int { return len(a.buf) }

// stringFrom returns the bytes appended since mark as a string.
func (a *arena) stringFrom(mark int) string {
	if mark == len(a.buf) {
		return ""
	}
	return unsafe.String(&a.buf[mark], len(a.buf)-mark)
}

// bytesFrom returns the bytes appended since mark, capped so that an append
// by the caller cannot write into the arena.
func (a *arena) bytesFrom(mark int) []byte {
	return a.buf[mark:len(a.buf):len(a.buf)]
}

// bytesString returns b as a string without copying; b must never be
// written again (it lies in an input buffer or the arena).
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Slab hands out slices of T carved from shared blocks, so that generated
// code can build ARRAY values without one allocation per row: it collects a
// row's elements in a reused scratch slice and stores Copy(scratch).
//
// Lifetime: a slice returned by Copy is never written by the Slab again and
// stays valid for as long as it is referenced; it keeps its whole block
// (about 64 KiB) alive, like the strings of the decoders. Its capacity ends
// at its length, so appending to it copies. The zero Slab is ready to use;
// use one per batch (or per decoder), not concurrently.
type Slab[T any] struct {
	block []T
}

const slabBytes = 64 << 10

// Copy returns a copy of src in slab memory; for an empty src it returns an
// empty, non-nil slice.
func (s *Slab[T]) Copy(src []T) []T {
	if cap(s.block)-len(s.block) < len(src) || s.block == nil {
		var zero T
		n := max(slabBytes/max(int(unsafe.Sizeof(zero)), 1), len(src), 16)
		s.block = make([]T, 0, n)
	}
	n := len(s.block)
	s.block = append(s.block, src...)
	return s.block[n:len(s.block):len(s.block)]
}
