package sqlfn

import (
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// The expected values are the examples of Spark's function reference
// (https://spark.apache.org/docs/latest/api/sql/index.html).
func TestDigests(t *testing.T) {
	b := []byte("Spark")
	if got := Md5(b); got != "8cde774d6f7333752ed72cacddb05126" {
		t.Errorf("md5 = %s", got)
	}
	if got := Sha1(b); got != "85f5955f4b27a9a4c2aab6ffe5d7189fc298b92c" {
		t.Errorf("sha1 = %s", got)
	}
	if got, ok := Sha2(b, 256); !ok || got != "529bc3b07127ecb7e53a4dcf1991d9152c24537d919178022b2c42657f79a26b" {
		t.Errorf("sha2 256 = %s %v", got, ok)
	}
	if _, ok := Sha2(b, 100); ok {
		t.Error("sha2 with 100 bits must be NULL")
	}
	if got := Crc32(b); got != 1557323817 {
		t.Errorf("crc32 = %d", got)
	}
}

func TestSparkHashes(t *testing.T) {
	// hash('Spark', array(123), 2) = -1321691492
	h := Murmur3("Spark", HashSeed)
	h = Murmur3([]int32{123}, h)
	h = Murmur3(int32(2), h)
	if h != -1321691492 {
		t.Errorf("hash('Spark', array(123), 2) = %d", h)
	}
	// xxhash64('Spark', array(123), 2) = 5602566077635097486
	x := XxHash64("Spark", HashSeed)
	x = XxHash64([]types.Null[int32]{types.Some(int32(123))}, x)
	x = XxHash64(int32(2), x)
	if x != 5602566077635097486 {
		t.Errorf("xxhash64('Spark', array(123), 2) = %d", x)
	}
	// hash(1) = -559580957; -0.0 hashes as 0.0.
	if got := Murmur3(int32(1), HashSeed); got != -559580957 {
		t.Errorf("hash(1) = %d", got)
	}
	if Murmur3(0.0, HashSeed) != Murmur3(-1*0.0, HashSeed) {
		t.Error("hash(-0.0) must equal hash(0.0)")
	}
	// A DECIMAL(10,2) hashes as its unscaled BIGINT.
	if Murmur3Decimal(types.DecimalFromInt64(12345), 10, HashSeed) != Murmur3(int64(12345), HashSeed) {
		t.Error("small decimals hash as their unscaled long")
	}
	if got := javaBigIntBytes(types.DecimalFromInt64(-1)); len(got) != 1 || got[0] != 0xff {
		t.Errorf("toByteArray(-1) = %x", got)
	}
	if got := javaBigIntBytes(types.DecimalFromInt64(128)); len(got) != 2 || got[0] != 0 || got[1] != 0x80 {
		t.Errorf("toByteArray(128) = %x", got)
	}
}

func TestXXH64Reference(t *testing.T) {
	// Reference vectors of xxHash (seed 0): "" and "abc".
	if got := xxh64(nil, 0); got != 0xEF46DB3751D8E999 {
		t.Errorf("xxh64('') = %x", got)
	}
	if got := xxh64([]byte("abc"), 0); got != 0x44BC2CF5AD770999 {
		t.Errorf("xxh64('abc') = %x", got)
	}
	long := []byte("Nobody inspects the spammish repetition, and more than 32 bytes")
	if a, b := xxh64(long, 1), xxh64(long, 1); a != b {
		t.Error("not deterministic")
	}
}
