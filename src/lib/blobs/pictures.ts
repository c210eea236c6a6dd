// What kind of picture some bytes are, read from the bytes themselves (magic numbers), and its
// dimensions when the header gives them. Never the name or the declared type.

export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type PictureType = (typeof PICTURE_TYPES)[number];

export interface PictureHeader {
  type: PictureType;
  width: number | null;
  height: number | null;
}

/** Enough of the file to find the dimensions of nearly every picture (a JPEG's EXIF comes first). */
export const PICTURE_HEAD_BYTES = 64 * 1024;

const starts = (b: Buffer, sig: number[] | string, at = 0) =>
  typeof sig === 'string' ? b.subarray(at, at + sig.length).toString('latin1') === sig : sig.every((v, i) => b[at + i] === v);

/** The picture type and dimensions of a file's first bytes, or undefined when they are no JPEG, PNG, GIF or WebP. */
export function readPictureHeader(b: Buffer): PictureHeader | undefined {
  if (starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    // The IHDR chunk comes first.
    const ihdr = starts(b, 'IHDR', 12) && b.length >= 24;
    return { type: 'image/png', width: ihdr ? b.readUInt32BE(16) : null, height: ihdr ? b.readUInt32BE(20) : null };
  }
  if (starts(b, 'GIF87a') || starts(b, 'GIF89a')) {
    const whole = b.length >= 10;
    return { type: 'image/gif', width: whole ? b.readUInt16LE(6) : null, height: whole ? b.readUInt16LE(8) : null };
  }
  if (starts(b, 'RIFF') && starts(b, 'WEBP', 8)) return { type: 'image/webp', ...webpSize(b) };
  if (starts(b, [0xff, 0xd8, 0xff])) return { type: 'image/jpeg', ...jpegSize(b) };
  return undefined;
}

type Size = { width: number | null; height: number | null };
const unknown: Size = { width: null, height: null };

function webpSize(b: Buffer): Size {
  if (b.length < 30) return unknown;
  if (starts(b, 'VP8X', 12)) return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (starts(b, 'VP8L', 12) && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (starts(b, 'VP8 ', 12) && starts(b, [0x9d, 0x01, 0x2a], 23))
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  return unknown;
}

/** Walks the JPEG's segments to its frame header (SOF0 to SOF15, but DHT, JPG and DAC). */
function jpegSize(b: Buffer): Size {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return unknown;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    }
    if (length < 2) return unknown;
    at += 2 + length;
  }
  return unknown;
}
