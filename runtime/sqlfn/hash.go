package sqlfn

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"math"
	"math/bits"
	"reflect"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds Spark's digest and hash functions with Spark's exact
// results: md5, sha1, sha2 and crc32 of the bytes (a STRING is hashed as
// its UTF-8 bytes), and hash (Murmur3_x86_32) and xxhash64 (XXH64) over
// typed values with seed 42, as Spark's HashExpression hashes them
// (org.apache.spark.sql.catalyst.expressions.hash.scala).

// Md5 returns md5(b) as 32 lower-case hex digits.
func Md5[B string | []byte](b B) string {
	s := md5.Sum([]byte(b))
	return hex.EncodeToString(s[:])
}

// Sha1 returns sha1(b) as 40 lower-case hex digits.
func Sha1[B string | []byte](b B) string {
	s := sha1.Sum([]byte(b))
	return hex.EncodeToString(s[:])
}

// Sha2 returns sha2(b, bits) in lower-case hex for bits 224, 256 (or 0,
// meaning 256), 384 and 512. ok is false for any other bit length, which
// Spark answers with NULL.
func Sha2[B string | []byte](data B, n int32) (string, bool) {
	b := []byte(data)
	switch n {
	case 0, 256:
		s := sha256.Sum256(b)
		return hex.EncodeToString(s[:]), true
	case 224:
		s := sha256.Sum224(b)
		return hex.EncodeToString(s[:]), true
	case 384:
		s := sha512.Sum384(b)
		return hex.EncodeToString(s[:]), true
	case 512:
		s := sha512.Sum512(b)
		return hex.EncodeToString(s[:]), true
	}
	return "", false
}

// Crc32 returns crc32(b) (IEEE) as a BIGINT.
func Crc32[B string | []byte](b B) int64 { return int64(crc32.ChecksumIEEE([]byte(b))) }

// HashSeed is the seed of hash and xxhash64 (Spark's default, 42).
const HashSeed = 42

// Murmur3 hashes v into seed as Spark's hash function does for v's SQL
// type, returning the new running hash: hash(a, b) is
// Murmur3(b, Murmur3(a, 42)), and a NULL argument leaves the seed as it
// is (the generated code skips it). Go types map to Spark types as in
// package types: bool, int8, int16, int32, types.Date hash as INT; int64
// and types.Timestamp as BIGINT; float32 and float64 by their IEEE bits
// (-0.0 as 0.0, NaN canonical); string and []byte by their bytes; slices
// element by element. A DECIMAL needs its precision: use Murmur3Decimal.
func Murmur3[T any](v T, seed int32) int32 {
	return murmurAny(any(v), seed)
}

func murmurAny(v any, seed int32) int32 {
	switch x := v.(type) {
	case bool:
		if x {
			return murmurInt(1, seed)
		}
		return murmurInt(0, seed)
	case int8:
		return murmurInt(int32(x), seed)
	case int16:
		return murmurInt(int32(x), seed)
	case int32:
		return murmurInt(x, seed)
	case types.Date:
		return murmurInt(int32(x), seed)
	case int64:
		return murmurLong(x, seed)
	case types.Timestamp:
		return murmurLong(int64(x), seed)
	case float32:
		return murmurInt(int32(floatBits(x)), seed)
	case float64:
		return murmurLong(int64(doubleBits(x)), seed)
	case string:
		return murmurBytes([]byte(x), seed)
	case []byte:
		return murmurBytes(x, seed)
	}
	return forElements(v, seed, murmurAny)
}

// Murmur3Decimal hashes a DECIMAL of the given precision into seed: by its
// unscaled value as a BIGINT when precision <= 18, else by the bytes of
// the unscaled value's two's complement (Java's BigInteger.toByteArray).
func Murmur3Decimal(d types.Decimal, precision int, seed int32) int32 {
	if precision <= 18 {
		return murmurLong(d.Int64(), seed)
	}
	return murmurBytes(javaBigIntBytes(d), seed)
}

// XxHash64 is Murmur3's counterpart for xxhash64 (XXH64, 64-bit seed).
func XxHash64[T any](v T, seed int64) int64 {
	return xxAny(any(v), seed)
}

func xxAny(v any, seed int64) int64 {
	switch x := v.(type) {
	case bool:
		if x {
			return xxInt(1, seed)
		}
		return xxInt(0, seed)
	case int8:
		return xxInt(int32(x), seed)
	case int16:
		return xxInt(int32(x), seed)
	case int32:
		return xxInt(x, seed)
	case types.Date:
		return xxInt(int32(x), seed)
	case int64:
		return xxLong(x, seed)
	case types.Timestamp:
		return xxLong(int64(x), seed)
	case float32:
		return xxInt(int32(floatBits(x)), seed)
	case float64:
		return xxLong(int64(doubleBits(x)), seed)
	case string:
		return int64(xxh64([]byte(x), uint64(seed)))
	case []byte:
		return int64(xxh64(x, uint64(seed)))
	}
	return forElements(v, seed, xxAny)
}

// XxHash64Decimal is Murmur3Decimal's counterpart for xxhash64.
func XxHash64Decimal(d types.Decimal, precision int, seed int64) int64 {
	if precision <= 18 {
		return xxLong(d.Int64(), seed)
	}
	return int64(xxh64(javaBigIntBytes(d), uint64(seed)))
}

// forElements hashes the parts of a nested value in order, as Spark
// hashes ARRAY elements and STRUCT fields: each part with the running hash
// as its seed, a NULL part (an invalid types.Null) leaving it unchanged.
func forElements[S int32 | int64](v any, seed S, f func(any, S) S) S {
	rv := reflect.ValueOf(v)
	switch {
	case rv.Kind() == reflect.Slice:
		for i := 0; i < rv.Len(); i++ {
			seed = f(rv.Index(i).Interface(), seed)
		}
	case rv.Kind() == reflect.Struct && isNullType(rv.Type()):
		if rv.FieldByName("Valid").Bool() {
			seed = f(rv.FieldByName("V").Interface(), seed)
		}
	case rv.Kind() == reflect.Struct:
		for i := 0; i < rv.NumField(); i++ {
			seed = f(rv.Field(i).Interface(), seed)
		}
	}
	return seed
}

// floatBits is Java's Float.floatToIntBits with Spark's -0.0 rule.
func floatBits(f float32) uint32 {
	switch {
	case f == 0:
		return 0
	case f != f:
		return 0x7fc00000
	}
	return math.Float32bits(f)
}

// doubleBits is Java's Double.doubleToLongBits with Spark's -0.0 rule.
func doubleBits(f float64) uint64 {
	switch {
	case f == 0:
		return 0
	case math.IsNaN(f):
		return 0x7ff8000000000000
	}
	return math.Float64bits(f)
}

// javaBigIntBytes is BigInteger.toByteArray of d's unscaled value: the
// shortest big-endian two's complement.
func javaBigIntBytes(d types.Decimal) []byte {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(d.Hi))
	binary.BigEndian.PutUint64(b[8:], d.Lo)
	i := 0
	for i < 15 && (b[i] == 0 && b[i+1]&0x80 == 0 || b[i] == 0xff && b[i+1]&0x80 != 0) {
		i++
	}
	return b[i:]
}

// Murmur3_x86_32 as Spark's org.apache.spark.unsafe.hash.Murmur3_x86_32.

const (
	murC1 = 0xcc9e2d51
	murC2 = 0x1b873593
)

func mixK1(k1 uint32) uint32 {
	k1 *= murC1
	k1 = bits.RotateLeft32(k1, 15)
	return k1 * murC2
}

func mixH1(h1, k1 uint32) uint32 {
	h1 ^= k1
	h1 = bits.RotateLeft32(h1, 13)
	return h1*5 + 0xe6546b64
}

func fmix32(h1 uint32, n int) uint32 {
	h1 ^= uint32(n)
	h1 ^= h1 >> 16
	h1 *= 0x85ebca6b
	h1 ^= h1 >> 13
	h1 *= 0xc2b2ae35
	h1 ^= h1 >> 16
	return h1
}

func murmurInt(v, seed int32) int32 {
	return int32(fmix32(mixH1(uint32(seed), mixK1(uint32(v))), 4))
}

func murmurLong(v int64, seed int32) int32 {
	h1 := mixH1(uint32(seed), mixK1(uint32(v)))
	h1 = mixH1(h1, mixK1(uint32(uint64(v)>>32)))
	return int32(fmix32(h1, 8))
}

// murmurBytes is Spark's hashUnsafeBytes: 4-byte little-endian words, then
// each remaining byte, sign-extended, as a word of its own (Spark's
// historical variant, which differs from standard Murmur3 in the tail).
// It takes a string as well, to hash one without copying it.
func murmurBytes[B string | []byte](b B, seed int32) int32 {
	h1 := uint32(seed)
	aligned := len(b) - len(b)%4
	for i := 0; i < aligned; i += 4 {
		w := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
		h1 = mixH1(h1, mixK1(w))
	}
	for i := aligned; i < len(b); i++ {
		h1 = mixH1(h1, mixK1(uint32(int32(int8(b[i])))))
	}
	return int32(fmix32(h1, len(b)))
}

// XXH64 (xxHash's 64-bit variant, as Spark's XXH64).

const (
	xxP1 uint64 = 0x9E3779B185EBCA87
	xxP2 uint64 = 0xC2B2AE3D27D4EB4F
	xxP3 uint64 = 0x165667B19E3779F9
	xxP4 uint64 = 0x85EBCA77C2B2AE63
	xxP5 uint64 = 0x27D4EB2F165667C5
)

func xxRound(acc, input uint64) uint64 {
	acc += input * xxP2
	acc = bits.RotateLeft64(acc, 31)
	return acc * xxP1
}

func xxMerge(acc, v uint64) uint64 {
	acc ^= xxRound(0, v)
	return acc*xxP1 + xxP4
}

func xxFmix(h uint64) uint64 {
	h ^= h >> 33
	h *= xxP2
	h ^= h >> 29
	h *= xxP3
	h ^= h >> 32
	return h
}

func xxh64(b []byte, seed uint64) uint64 {
	n := len(b)
	var h uint64
	if n >= 32 {
		v1, v2, v3, v4 := seed+xxP1+xxP2, seed+xxP2, seed, seed-xxP1
		for len(b) >= 32 {
			v1 = xxRound(v1, binary.LittleEndian.Uint64(b))
			v2 = xxRound(v2, binary.LittleEndian.Uint64(b[8:]))
			v3 = xxRound(v3, binary.LittleEndian.Uint64(b[16:]))
			v4 = xxRound(v4, binary.LittleEndian.Uint64(b[24:]))
			b = b[32:]
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) + bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		h = xxMerge(h, v1)
		h = xxMerge(h, v2)
		h = xxMerge(h, v3)
		h = xxMerge(h, v4)
	} else {
		h = seed + xxP5
	}
	h += uint64(n)
	for len(b) >= 8 {
		h ^= xxRound(0, binary.LittleEndian.Uint64(b))
		h = bits.RotateLeft64(h, 27)*xxP1 + xxP4
		b = b[8:]
	}
	if len(b) >= 4 {
		h ^= uint64(binary.LittleEndian.Uint32(b)) * xxP1
		h = bits.RotateLeft64(h, 23)*xxP2 + xxP3
		b = b[4:]
	}
	for _, c := range b {
		h ^= uint64(c) * xxP5
		h = bits.RotateLeft64(h, 11) * xxP1
	}
	return xxFmix(h)
}

func xxInt(v int32, seed int64) int64 {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(v))
	return int64(xxh64(b[:], uint64(seed)))
}

func xxLong(v int64, seed int64) int64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	return int64(xxh64(b[:], uint64(seed)))
}
