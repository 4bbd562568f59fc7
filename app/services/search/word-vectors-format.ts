/**
 * The word-vector file format (app/data/word-vectors.bin), shared by the distilling script and
 * the loader. Little-endian:
 *
 *   "FDWV" | u8 version (1) | 3 bytes zero | u32 dimensions | u32 count | u32 wordsBytes
 *   | words: UTF-8, joined by "\n" (wordsBytes bytes) | zero padding to a multiple of 4
 *   | f32 scale[count] | i8 value[count × dimensions]
 *
 * A vector is `value[i] * scale` (the source vectors are unit length before quantising).
 */

const MAGIC = "FDWV";
const VERSION = 1;

export interface DecodedWordVectors {
  dimensions: number;
  words: string[];
  scales: Float32Array;
  values: Int8Array;
}

export function encodeWordVectors(words: string[], vectors: ArrayLike<number>[], dimensions: number): Uint8Array {
  if (words.length !== vectors.length) throw new Error("words and vectors differ in length");
  const wordBytes = new TextEncoder().encode(words.join("\n"));
  const header = 4 + 4 + 12;
  const pad = (4 - ((header + wordBytes.length) % 4)) % 4;
  const scalesAt = header + wordBytes.length + pad;
  const valuesAt = scalesAt + 4 * words.length;
  const out = new Uint8Array(valuesAt + words.length * dimensions);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint8(4, VERSION);
  view.setUint32(8, dimensions, true);
  view.setUint32(12, words.length, true);
  view.setUint32(16, wordBytes.length, true);
  out.set(wordBytes, header);
  const values = new Int8Array(out.buffer, valuesAt, words.length * dimensions);
  for (let w = 0; w < words.length; w++) {
    const v = vectors[w];
    if (v.length !== dimensions) throw new Error(`vector of "${words[w]}" has ${v.length} dimensions`);
    let max = 0;
    for (let i = 0; i < dimensions; i++) max = Math.max(max, Math.abs(v[i]));
    const scale = max > 0 ? max / 127 : 1;
    view.setFloat32(scalesAt + 4 * w, scale, true);
    for (let i = 0; i < dimensions; i++) values[w * dimensions + i] = Math.max(-127, Math.min(127, Math.round(v[i] / scale)));
  }
  return out;
}

export function decodeWordVectors(bytes: Uint8Array): DecodedWordVectors {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC) throw new Error("not a word-vector file (bad magic)");
  const version = view.getUint8(4);
  if (version !== VERSION) throw new Error(`unsupported word-vector file version ${version}`);
  const dimensions = view.getUint32(8, true);
  const count = view.getUint32(12, true);
  const wordsBytes = view.getUint32(16, true);
  const header = 20;
  const words = new TextDecoder().decode(bytes.subarray(header, header + wordsBytes)).split("\n");
  if (words.length !== count) throw new Error(`word-vector file lists ${words.length} words, header says ${count}`);
  const pad = (4 - ((header + wordsBytes) % 4)) % 4;
  const scalesAt = header + wordsBytes + pad;
  const valuesAt = scalesAt + 4 * count;
  if (bytes.byteLength < valuesAt + count * dimensions) throw new Error("word-vector file is truncated");
  const scales = new Float32Array(count);
  for (let i = 0; i < count; i++) scales[i] = view.getFloat32(scalesAt + 4 * i, true);
  const values = new Int8Array(bytes.buffer, bytes.byteOffset + valuesAt, count * dimensions);
  return { dimensions, words, scales, values };
}
