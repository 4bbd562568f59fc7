/**
 * Location data out of an image's EXIF, the rest kept (DESIGN.md "Images": EXIF kept, location
 * stripped). The EXIF block is a TIFF structure; its GPS sub-IFD (pointer tag 0x8825 in IFD0)
 * holds the position. It is emptied in place — entry count 0, entries and their values zeroed —
 * so the block keeps its length and can be written back where it was read, and every other tag
 * (camera, date, exposure, copyright) stays as it was.
 */

const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };
const GPS_POINTER = 0x8825;

interface Tiff {
  view: DataView;
  base: number;
  le: boolean;
}

function tiffOf(block: Uint8Array): Tiff | null {
  // sharp's `metadata().exif` starts with the APP1 "Exif\0\0" marker; a bare TIFF block does not.
  const base = block.length >= 6 && String.fromCharCode(...block.subarray(0, 4)) === "Exif" ? 6 : 0;
  if (block.length < base + 8) return null;
  const order = String.fromCharCode(block[base], block[base + 1]);
  if (order !== "II" && order !== "MM") return null;
  return { view: new DataView(block.buffer, block.byteOffset, block.byteLength), base, le: order === "II" };
}

function gpsIfdOffset(t: Tiff): number | null {
  const { view, base, le } = t;
  const ifd0 = view.getUint32(base + 4, le);
  if (base + ifd0 + 2 > view.byteLength) return null;
  const n = view.getUint16(base + ifd0, le);
  for (let i = 0; i < n; i++) {
    const entry = base + ifd0 + 2 + i * 12;
    if (entry + 12 > view.byteLength) return null;
    if (view.getUint16(entry, le) === GPS_POINTER) {
      const off = view.getUint32(entry + 8, le);
      return base + off + 2 <= view.byteLength ? base + off : null;
    }
  }
  return null;
}

/** How many GPS tags the block carries (0 without a GPS IFD). */
export function gpsTagCount(block: Uint8Array): number {
  const t = tiffOf(block);
  const gps = t && gpsIfdOffset(t);
  return t && gps !== null && gps !== undefined ? t.view.getUint16(gps, t.le) : 0;
}

/** A copy of the EXIF block without its GPS tags (the same length); null when it cannot be read. */
export function withoutLocation(block: Uint8Array): Uint8Array | null {
  const copy = new Uint8Array(block);
  const t = tiffOf(copy);
  if (!t) return null;
  const gps = gpsIfdOffset(t);
  if (gps === null) return copy;
  const { view, base, le } = t;
  const n = view.getUint16(gps, le);
  for (let i = 0; i < n; i++) {
    const entry = gps + 2 + i * 12;
    if (entry + 12 > view.byteLength) return null;
    const size = (TYPE_SIZES[view.getUint16(entry + 2, le)] ?? 1) * view.getUint32(entry + 4, le);
    if (size > 4) {
      const at = base + view.getUint32(entry + 8, le);
      if (at + size > view.byteLength) return null;
      copy.fill(0, at, at + size);
    }
    copy.fill(0, entry, entry + 12);
  }
  // Count 0; the next-IFD pointer a reader looks for right after it is now zero too (no next IFD).
  view.setUint16(gps, 0, le);
  if (gps + 6 <= view.byteLength) view.setUint32(gps + 2, 0, le);
  return copy;
}
