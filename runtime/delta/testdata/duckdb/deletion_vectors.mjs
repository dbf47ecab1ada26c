// deletion_vectors.mjs: the deleted row indexes of a Delta deletion vector,
// decoded as PROTOCOL.md of delta-io/delta describes them ("Deletion
// Vectors", "Deletion Vector Format", "Deletion Vector File Storage
// Format") and the RoaringFormatSpec lays out 32-bit RoaringBitmaps. Written
// for read_delta.mjs from those texts, not from pipegen's Go reader.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';

// z85 decodes Z85 text (5 characters per 4 bytes, big-endian base 85).
export function z85(s) {
  if (s.length % 5 !== 0) throw new Error(`Z85 text of length ${s.length}`);
  const out = Buffer.alloc((s.length / 5) * 4);
  for (let i = 0; i < s.length; i += 5) {
    let v = 0;
    for (let j = 0; j < 5; j++) {
      const d = Z85.indexOf(s[i + j]);
      if (d < 0) throw new Error(`invalid Z85 character ${s[i + j]}`);
      v = v * 85 + d;
    }
    out.writeUInt32BE(v, (i / 5) * 4);
  }
  return out;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// roaring32 decodes one 32-bit RoaringBitmap in the portable format at
// buf[pos], calling add(value) for each value; it returns the position
// after it.
function roaring32(buf, pos, add) {
  const cookie = buf.readUInt32LE(pos);
  let n, runs = null, withOffsets;
  if ((cookie & 0xffff) === 12347) { // SERIAL_COOKIE: has run containers
    n = (cookie >>> 16) + 1;
    pos += 4;
    runs = buf.subarray(pos, pos + Math.ceil(n / 8));
    pos += Math.ceil(n / 8);
    withOffsets = n >= 4;
  } else if (cookie === 12346) { // SERIAL_COOKIE_NO_RUNCONTAINER
    n = buf.readUInt32LE(pos + 4);
    pos += 8;
    withOffsets = true;
  } else {
    throw new Error(`not a RoaringBitmap (cookie ${cookie})`);
  }
  const keys = [], cards = [];
  for (let i = 0; i < n; i++) {
    keys.push(buf.readUInt16LE(pos));
    cards.push(buf.readUInt16LE(pos + 2) + 1);
    pos += 4;
  }
  if (withOffsets) pos += 4 * n;
  for (let i = 0; i < n; i++) {
    const high = keys[i] * 65536;
    if (runs && (runs[i >> 3] >> (i & 7)) & 1) {
      const nruns = buf.readUInt16LE(pos);
      pos += 2;
      for (let r = 0; r < nruns; r++) {
        const start = buf.readUInt16LE(pos), len = buf.readUInt16LE(pos + 2);
        pos += 4;
        for (let v = start; v <= start + len; v++) add(high + v);
      }
    } else if (cards[i] <= 4096) {
      for (let k = 0; k < cards[i]; k++) add(high + buf.readUInt16LE(pos + 2 * k));
      pos += 2 * cards[i];
    } else {
      for (let w = 0; w < 8192; w++) {
        const byte = buf[pos + w];
        for (let b = 0; b < 8; b++) if ((byte >> b) & 1) add(high + w * 8 + b);
      }
      pos += 8192;
    }
  }
  return pos;
}

// bitmapArray decodes a serialized RoaringBitmapArray: the portable format
// (little-endian magic 1681511377, a 64-bit bucket count, then per bucket a
// 32-bit key and a 32-bit bitmap) or the native one (big-endian magic
// 1681511376, a 32-bit count, then per bitmap its size and the bitmap, the
// i-th holding the values whose upper 32 bits are i).
function bitmapArray(buf) {
  const out = [];
  if (buf.readUInt32LE(0) === 1681511377) {
    const n = Number(buf.readBigUInt64LE(4));
    let pos = 12;
    for (let i = 0; i < n; i++) {
      const key = buf.readUInt32LE(pos);
      pos = roaring32(buf, pos + 4, (v) => out.push(key * 2 ** 32 + v));
    }
  } else if (buf.readUInt32BE(0) === 1681511376) {
    const n = buf.readUInt32BE(4);
    let pos = 8;
    for (let i = 0; i < n; i++) {
      const size = buf.readUInt32BE(pos);
      roaring32(buf, pos + 4, (v) => out.push(i * 2 ** 32 + v));
      pos += 4 + size;
    }
  } else {
    throw new Error('not a RoaringBitmapArray');
  }
  return out;
}

// deletedRows returns the row indexes the deletion vector descriptor dv of
// a file of the table at root deletes, checking the stored CRC-32 and the
// descriptor's cardinality.
export function deletedRows(root, dv) {
  let data;
  if (dv.storageType === 'i') {
    data = z85(dv.pathOrInlineDv).subarray(0, dv.sizeInBytes);
  } else {
    let file;
    if (dv.storageType === 'u') {
      const s = dv.pathOrInlineDv;
      const u = z85(s.slice(-20)).toString('hex');
      const uuid = `${u.slice(0, 8)}-${u.slice(8, 12)}-${u.slice(12, 16)}-${u.slice(16, 20)}-${u.slice(20)}`;
      file = join(root, s.slice(0, -20), `deletion_vector_${uuid}.bin`);
    } else if (dv.storageType === 'p') {
      file = decodeURIComponent(dv.pathOrInlineDv.replace(/^file:(\/\/)?/, ''));
    } else {
      throw new Error(`unknown deletion vector storage type ${dv.storageType}`);
    }
    const buf = readFileSync(file);
    if (buf[0] !== 1) throw new Error(`${file}: format version ${buf[0]}`);
    const off = dv.offset ?? 1;
    const size = buf.readUInt32BE(off);
    data = buf.subarray(off + 4, off + 4 + size);
    if (crc32(data) !== buf.readUInt32BE(off + 4 + size)) throw new Error(`${file}: CRC mismatch`);
  }
  const rows = bitmapArray(data);
  if (rows.length !== Number(dv.cardinality)) {
    throw new Error(`deletion vector holds ${rows.length} rows, its descriptor says ${dv.cardinality}`);
  }
  return rows;
}
