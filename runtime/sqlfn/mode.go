package sqlfn

import (
	"cmp"
	"math"
	"reflect"
)

// ModeSpark returns mode(x) as Spark computes it: the most frequent value,
// and among equally frequent ones the first in the iteration order of
// Spark's OpenHashMap (Mode.scala takes maxBy over the map), which this
// reproduces: an open-addressing table of 64 slots growing twice as large
// past a load of 0.7, Guava's murmur3_32 of the value's Java hashCode as
// the slot, quadratic probing, values inserted in order of first
// appearance (mode.sql.out: among all-distinct salaries, mode gives
// 10563). NULL for no values.
func ModeSpark[T cmp.Ordered](c *Counts[T]) (T, bool) {
	var best T
	if c.n == 0 {
		return best, false
	}
	var most int64
	for _, k := range sparkHashOrder(c.order) {
		if n := c.m[k]; n > most {
			best, most = k, n
		}
	}
	return best, true
}

// sparkHashOrder returns keys in the iteration order of a Spark
// OpenHashSet into which they were added in this order
// (core/.../util/collection/OpenHashSet.scala).
func sparkHashOrder[T comparable](keys []T) []T {
	capacity := 64
	slots := make([]int, capacity) // index into keys + 1; 0 is empty
	hashes := make([]int32, len(keys))
	place := func(slots []int, i int) {
		mask := len(slots) - 1
		pos := int(guavaMurmur3Int(hashes[i])) & mask
		for d := 1; slots[pos] != 0; d++ {
			pos = (pos + d) & mask
		}
		slots[pos] = i + 1
	}
	for i, k := range keys {
		hashes[i] = javaHashCode(k)
		place(slots, i)
		if i+1 > int(0.7*float64(capacity)) {
			capacity *= 2
			grown := make([]int, capacity)
			for _, s := range slots {
				if s != 0 {
					place(grown, s-1)
				}
			}
			slots = grown
		}
	}
	out := make([]T, 0, len(keys))
	for _, s := range slots {
		if s != 0 {
			out = append(out, keys[s-1])
		}
	}
	return out
}

// javaHashCode returns the hashCode of the Java object Spark holds for a
// value: Integer (also for BYTE, SHORT and DATE), Long (also TIMESTAMP),
// Float, Double, UTF8String.
func javaHashCode(k any) int32 {
	v := reflect.ValueOf(k)
	switch v.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32:
		return int32(v.Int())
	case reflect.Int64, reflect.Int:
		x := uint64(v.Int())
		return int32(x ^ x>>32)
	case reflect.Float32:
		f := float32(v.Float())
		if f != f {
			return 0x7fc00000
		}
		return int32(math.Float32bits(f))
	case reflect.Float64:
		f := v.Float()
		b := math.Float64bits(f)
		if f != f {
			b = 0x7ff8000000000000
		}
		return int32(b ^ b>>32)
	case reflect.String:
		return utf8StringHash(v.String())
	}
	return 0
}

// guavaMurmur3Int is Guava's Hashing.murmur3_32().hashInt(h).
func guavaMurmur3Int(h int32) uint32 {
	return fmix32(mixH1(0, mixK1(uint32(h))), 4)
}

// utf8StringHash is Spark's UTF8String.hashCode: Murmur3_x86_32's
// hashUnsafeBytes with seed 42 over the UTF-8 bytes.
func utf8StringHash(s string) int32 { return murmurBytes(s, 42) }

// ModeOrdered returns mode(x, true) and mode() WITHIN GROUP (ORDER BY x
// [DESC]) as Spark's Mode with a sort direction computes them: the most
// frequent value, and among equally frequent ones the smallest (the
// largest with largest, for ORDER BY x DESC), NaN ordered above every
// number. NULL for no values.
func ModeOrdered[T cmp.Ordered](c *Counts[T], largest bool) (T, bool) {
	var best T
	if c.n == 0 {
		return best, false
	}
	var most int64
	for _, k := range c.order {
		n := c.m[k]
		d := sparkCompare(k, best)
		if largest {
			d = -d
		}
		if n > most || n == most && d < 0 {
			best, most = k, n
		}
	}
	return best, true
}

// sparkCompare orders a and b as Spark does: cmp.Compare, except that NaN
// is greater than every other value and equal to itself.
func sparkCompare[T cmp.Ordered](a, b T) int {
	aNaN, bNaN := a != a, b != b
	switch {
	case aNaN && bNaN:
		return 0
	case aNaN:
		return 1
	case bNaN:
		return -1
	}
	return cmp.Compare(a, b)
}
