import { readPictureHeader } from '../../lib/blobs/pictures.js';

/** Whether stored bytes are what was declared: the picture type read from them, and the exact size. */
export function checkPicture(
  declared: { contentType: string; size: number },
  found: { head: Buffer; size: number },
): { width: number | null; height: number | null } | { refused: string } {
  if (found.size !== declared.size) return { refused: `the upload has ${found.size} bytes, not the ${declared.size} declared` };
  const header = readPictureHeader(found.head);
  if (!header) return { refused: 'the bytes are not a JPEG, PNG, GIF or WebP picture' };
  if (header.type !== declared.contentType) return { refused: `the bytes are ${header.type}, not the ${declared.contentType} declared` };
  return { width: header.width, height: header.height };
}
