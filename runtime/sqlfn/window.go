package sqlfn

// This file holds the frame arithmetic of window functions (Spark's
// WindowFrame, RowFrame and RangeFrame): for the rows of one partition,
// sorted by the window's ORDER BY, the frame of row i is [Lo[i], Hi[i]).

// Bound kinds, as sql.BoundKind numbers them.
const (
	UnboundedPreceding = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// Bound is one end of a frame: a kind and, for Preceding and Following, a
// non-negative offset (rows for ROWS frames, an amount of the ORDER BY
// value for RANGE frames).
type Bound[K int64 | float64] struct {
	Kind   int
	Offset K
}

// Frames holds the frame of each row of a partition.
type Frames struct {
	Lo, Hi []int32
}

// reset sizes f for n rows.
func (f *Frames) reset(n int) {
	if cap(f.Lo) < n {
		f.Lo, f.Hi = make([]int32, n), make([]int32, n)
	}
	f.Lo, f.Hi = f.Lo[:n], f.Hi[:n]
}

// RowFrames computes ROWS BETWEEN start AND end frames for n rows:
// offsets count rows; a frame past the partition's ends is clipped, and an
// empty one has Lo >= Hi.
func (f *Frames) RowFrames(n int, start, end Bound[int64]) {
	f.reset(n)
	at := func(b Bound[int64], i int, isEnd bool) int32 {
		var x int64
		switch b.Kind {
		case UnboundedPreceding:
			return 0
		case UnboundedFollowing:
			return int32(n)
		case Preceding:
			x = int64(i) - b.Offset
		case Following:
			x = int64(i) + b.Offset
		default:
			x = int64(i)
		}
		if isEnd {
			x++
		}
		return int32(min(max(x, 0), int64(n)))
	}
	for i := range n {
		f.Lo[i], f.Hi[i] = at(start, i, false), at(end, i, true)
	}
}

// PeerFrames computes RANGE frames without offsets for n rows: CURRENT ROW
// is the row's peers (rows whose ORDER BY values equal its own: same(i, j)
// for neighbours), UNBOUNDED the partition's ends.
func (f *Frames) PeerFrames(n int, start, end int, same func(i, j int) bool) {
	f.reset(n)
	for i := 0; i < n; {
		j := i + 1
		for j < n && same(i, j) {
			j++
		}
		for k := i; k < j; k++ {
			f.Lo[k], f.Hi[k] = int32(i), int32(j)
		}
		i = j
	}
	for i := range n {
		if start == UnboundedPreceding {
			f.Lo[i] = 0
		}
		if end == UnboundedFollowing {
			f.Hi[i] = int32(n)
		}
	}
}

// RangeFrames computes RANGE frames with offsets over one ORDER BY value:
// keys[i] (valid[i] false for NULL) sorted ascending or, with desc,
// descending, with the NULLs first or last. The frame of a row holds the
// rows whose value v satisfies key-start <= v <= key+end (in the sort's
// direction: PRECEDING is towards the partition's start); a row with a
// NULL value has its NULL peers as frame, as in Spark.
func RangeFrames[K int64 | float64](f *Frames, keys []K, valid []bool, desc bool, start, end Bound[K]) {
	n := len(keys)
	f.reset(n)
	// dist is how far v lies after key in the sort's direction.
	dist := func(v, key K) K {
		if desc {
			return key - v
		}
		return v - key
	}
	// Bounds as distances: row j is in the frame of i when lo <= d <= hi.
	lim := func(b Bound[K]) (K, int) {
		switch b.Kind {
		case Preceding:
			return -b.Offset, 0
		case Following:
			return b.Offset, 0
		case CurrentRow:
			return 0, 0
		case UnboundedPreceding:
			return 0, -1
		}
		return 0, 1
	}
	lo, loInf := lim(start)
	hi, hiInf := lim(end)
	// The rows with values, between the NULLs.
	first, last := 0, n
	for first < n && !valid[first] {
		first++
	}
	for last > first && !valid[last-1] {
		last--
	}
	a, b := first, first
	for i := range n {
		if !valid[i] {
			// NULLs are peers of each other only.
			s, e := 0, first
			if i >= last {
				s, e = last, n
			}
			f.Lo[i], f.Hi[i] = int32(s), int32(e)
			if loInf < 0 {
				f.Lo[i] = 0
			}
			if hiInf > 0 {
				f.Hi[i] = int32(n)
			}
			continue
		}
		if loInf < 0 {
			f.Lo[i] = 0
		} else {
			for a < last && dist(keys[a], keys[i]) < lo {
				a++
			}
			f.Lo[i] = int32(a)
		}
		if hiInf > 0 {
			f.Hi[i] = int32(n)
		} else {
			if b < a {
				b = a
			}
			for b < last && dist(keys[b], keys[i]) <= hi {
				b++
			}
			f.Hi[i] = int32(b)
		}
	}
}

// NTile returns ntile(k) of row i (0-based) of a partition of n rows:
// buckets of n/k rows, the first n%k of them one row longer (Spark's NTile).
func NTile(i, n, k int) int32 {
	size, padded := n/k, n%k
	if i < padded*(size+1) {
		return int32(i/(size+1) + 1)
	}
	return int32(padded + (i-padded*(size+1))/size + 1)
}
