package delta

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strconv"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/pipegen/pipegen/runtime/storage"
)

// DeletionVector is the deletion vector descriptor of an add or remove
// action (protocol, "Deletion Vector Descriptor Schema"): the rows of a
// data file that are logically deleted.
//
// StorageType says where the serialized bitmap is: "u" in a file of the
// table's directory named from a UUID (PathOrInlineDv is an optional
// random prefix followed by the Z85-encoded UUID, 20 characters), "p" in
// a file at an absolute path (PathOrInlineDv), "i" inline (PathOrInlineDv
// is the Z85-encoded bitmap). Offset is the byte offset of the vector in
// its file (absent for inline vectors); SizeInBytes the size of the
// serialized bitmap; Cardinality the number of deleted rows.
type DeletionVector struct {
	StorageType    string `json:"storageType"`
	PathOrInlineDv string `json:"pathOrInlineDv"`
	Offset         *int32 `json:"offset,omitempty"`
	SizeInBytes    int32  `json:"sizeInBytes"`
	Cardinality    int64  `json:"cardinality"`
}

// UniqueID is the vector's identity in log reconciliation (protocol,
// "Derived Fields"): storage type and path or inline data, then
// "@offset" when there is an offset.
func (dv *DeletionVector) UniqueID() string {
	if dv == nil {
		return ""
	}
	id := dv.StorageType + dv.PathOrInlineDv
	if dv.Offset != nil {
		id += "@" + strconv.Itoa(int(*dv.Offset))
	}
	return id
}

// fileKey is the reconciliation key of a logical file ("Action
// Reconciliation"): its URI-decoded path and its deletion vector's unique
// id.
func fileKey(path string, dv *DeletionVector) string {
	k := pathKey(path)
	if dv != nil {
		k += "\x00" + dv.UniqueID()
	}
	return k
}

// File returns the local path of the file holding an on-disk vector of
// the table at table ("Derived Fields", absolutePath): for storage type
// "u", `<table>/<prefix>/deletion_vector_<uuid>.bin`; for "p", the path.
func (dv *DeletionVector) File(table string) (string, error) {
	switch dv.StorageType {
	case "u":
		s := dv.PathOrInlineDv
		if len(s) < 20 {
			return "", fmt.Errorf("deletion vector path %q is shorter than a Z85-encoded UUID (20 characters)", s)
		}
		prefix, enc := s[:len(s)-20], s[len(s)-20:]
		u, err := z85Decode(enc)
		if err != nil {
			return "", fmt.Errorf("deletion vector path %q: %w", s, err)
		}
		name := fmt.Sprintf("deletion_vector_%x-%x-%x-%x-%x.bin", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
		return storage.Join(table, prefix, name), nil
	case "p":
		return FilePath(table, dv.PathOrInlineDv), nil
	}
	return "", fmt.Errorf("deletion vector of storage type %q has no file", dv.StorageType)
}

// dvMagic is the magic number before a portable 64-bit RoaringBitmap
// ("Deletion Vector Format").
const dvMagic = 1681511377

// dvNativeMagic is the magic number of the native RoaringBitmapArray
// serialization (see decodeBitmapArray).
const dvNativeMagic = 1681511376

// Load reads the vector's set of deleted row indexes (0-based positions of
// rows in the data file). On-disk vectors are checked against the file
// format ("Deletion Vector File Storage Format": version byte 1, then per
// vector a big-endian size, the bitmap and its big-endian CRC-32); every
// vector against its magic number and its cardinality. Errors say what is
// wrong and where.
func (dv *DeletionVector) Load(table string) (*roaring64.Bitmap, error) {
	var data []byte
	switch dv.StorageType {
	case "i":
		raw, err := z85Decode(dv.PathOrInlineDv)
		if err != nil {
			return nil, fmt.Errorf("inline deletion vector: %w", err)
		}
		if int(dv.SizeInBytes) > len(raw) || dv.SizeInBytes < 4 {
			return nil, fmt.Errorf("inline deletion vector: sizeInBytes %d but %d bytes encoded", dv.SizeInBytes, len(raw))
		}
		data = raw[:dv.SizeInBytes]
	case "u", "p":
		path, err := dv.File(table)
		if err != nil {
			return nil, err
		}
		if data, err = readDVFile(path, dv); err != nil {
			return nil, fmt.Errorf("deletion vector file %s: %w", path, err)
		}
	default:
		return nil, fmt.Errorf("deletion vector has unknown storage type %q (want u, p or i)", dv.StorageType)
	}
	bm, err := decodeBitmapArray(data)
	if err != nil {
		return nil, fmt.Errorf("deletion vector %s: %w", dv.UniqueID(), err)
	}
	if int64(bm.GetCardinality()) != dv.Cardinality {
		return nil, fmt.Errorf("deletion vector %s holds %d rows but its descriptor says cardinality %d", dv.UniqueID(), bm.GetCardinality(), dv.Cardinality)
	}
	return bm, nil
}

// decodeBitmapArray decodes a serialized RoaringBitmapArray ("Deletion
// Vector Format"): the portable format (little-endian magic 1681511377,
// then a 64-bit RoaringBitmap in the RoaringFormatSpec's portable 64-bit
// layout: a count of buckets, then per bucket its 32-bit key and a 32-bit
// RoaringBitmap), or the older native format Delta's Java implementation
// also reads (big-endian magic 1681511376, a big-endian count of 32-bit
// bitmaps, then per bitmap its big-endian size and the bitmap; the i-th
// bitmap holds the values whose upper 32 bits are i), which the protocol's
// inline example uses.
func decodeBitmapArray(data []byte) (*roaring64.Bitmap, error) {
	switch {
	case binary.LittleEndian.Uint32(data[:4]) == dvMagic:
		bm := roaring64.New()
		if _, err := bm.ReadFrom(bytes.NewReader(data[4:])); err != nil {
			return nil, err
		}
		return bm, nil
	case binary.BigEndian.Uint32(data[:4]) == dvNativeMagic:
		rest := data[4:]
		if len(rest) < 4 {
			return nil, errors.New("native RoaringBitmapArray ends before its bitmap count")
		}
		n := binary.BigEndian.Uint32(rest)
		rest = rest[4:]
		bm := roaring64.New()
		for i := uint32(0); i < n; i++ {
			if len(rest) < 4 {
				return nil, fmt.Errorf("native RoaringBitmapArray ends before bitmap %d of %d", i+1, n)
			}
			size := binary.BigEndian.Uint32(rest)
			rest = rest[4:]
			if uint64(size) > uint64(len(rest)) {
				return nil, fmt.Errorf("native RoaringBitmapArray: bitmap %d of %d bytes runs past the end", i+1, size)
			}
			b := roaring.New()
			if _, err := b.ReadFrom(bytes.NewReader(rest[:size])); err != nil {
				return nil, fmt.Errorf("bitmap %d: %w", i+1, err)
			}
			it := b.Iterator()
			for it.HasNext() {
				bm.Add(uint64(i)<<32 | uint64(it.Next()))
			}
			rest = rest[size:]
		}
		return bm, nil
	}
	return nil, fmt.Errorf("not a RoaringBitmapArray (magic number %d, want %d)", binary.LittleEndian.Uint32(data[:4]), dvMagic)
}

// readDVFile reads one vector's bitmap data (magic number included) from
// a deletion vector file, checking its size and CRC.
func readDVFile(path string, dv *DeletionVector) ([]byte, error) {
	f, err := storage.OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var version [1]byte
	if _, err := io.ReadFull(f, version[:]); err != nil {
		return nil, fmt.Errorf("read format version: %w", err)
	}
	if version[0] != 1 {
		return nil, fmt.Errorf("format version %d, want 1", version[0])
	}
	// The offset is that of the vector's size field; a vector without one
	// follows the version byte.
	offset := int64(1)
	if dv.Offset != nil {
		offset = int64(*dv.Offset)
	}
	if dv.SizeInBytes < 4 {
		return nil, fmt.Errorf("sizeInBytes %d is too small for a bitmap", dv.SizeInBytes)
	}
	buf := make([]byte, 4+int(dv.SizeInBytes)+4)
	if _, err := f.ReadAt(buf, offset); err != nil {
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("the file ends before the %d bytes of the vector at offset %d", len(buf), offset)
		}
		return nil, err
	}
	size := binary.BigEndian.Uint32(buf[:4])
	if size != uint32(dv.SizeInBytes) {
		return nil, fmt.Errorf("vector at offset %d has %d bytes, but its descriptor says %d", offset, size, dv.SizeInBytes)
	}
	data := buf[4 : 4+size]
	if got, want := crc32.ChecksumIEEE(data), binary.BigEndian.Uint32(buf[4+size:]); got != want {
		return nil, fmt.Errorf("vector at offset %d fails its checksum (CRC-32 %08x, stored %08x): the file is corrupt", offset, got, want)
	}
	return data, nil
}

// z85Alphabet is the alphabet of Z85 (ZeroMQ RFC 32), the Base85 variant
// Delta encodes UUIDs and inline vectors with.
const z85Alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"

var z85Values = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(z85Alphabet); i++ {
		t[z85Alphabet[i]] = int8(i)
	}
	return t
}()

// z85Decode decodes Z85 text, 5 characters to 4 bytes (big-endian base 85).
// Delta pads the encoded bytes to a multiple of 4; callers cut the result
// to the size they expect.
func z85Decode(s string) ([]byte, error) {
	if len(s)%5 != 0 {
		return nil, fmt.Errorf("Z85 text of %d characters, not a multiple of 5", len(s))
	}
	out := make([]byte, 0, len(s)/5*4)
	for i := 0; i < len(s); i += 5 {
		var v uint64
		for j := 0; j < 5; j++ {
			d := z85Values[s[i+j]]
			if d < 0 {
				return nil, fmt.Errorf("invalid Z85 character %q at %d", s[i+j], i+j)
			}
			v = v*85 + uint64(d)
		}
		if v > 0xFFFFFFFF {
			return nil, fmt.Errorf("invalid Z85 group %q at %d", s[i:i+5], i)
		}
		out = binary.BigEndian.AppendUint32(out, uint32(v))
	}
	return out, nil
}
