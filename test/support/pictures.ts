import { crc32, deflateSync } from 'node:zlib';
import { call } from './http.js';
import type { TestServer } from './server.js';

// Real pictures made in the test, and the upload flow as an app runs it: POST /attachments, then
// PUT the bytes at the answer's address.

const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A valid PNG of this size (8-bit RGB, a gradient, or what `paint` says of each pixel), as any image library would read it. */
export function png(width = 3, height = 2, paint?: (x: number, y: number) => [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width * 3; x++)
      rows[y * (1 + width * 3) + 1 + x] = paint ? paint(Math.floor(x / 3), y)[x % 3]! : (x * 40 + y * 90) % 256;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A GIF's header: enough bytes for its type and size to be read. */
export const gif = (width: number, height: number) => {
  const b = Buffer.alloc(32);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
};

/** The address as reached from the test: the service writes BASE_URL into it, the test server listens elsewhere. */
export const reachable = (t: TestServer, address: string) =>
  address.startsWith(t.svc.config.baseUrl) ? t.url + address.slice(t.svc.config.baseUrl.length) : address;

/** Sends the bytes to an upload answer's address, as the answer says to. */
export function putBytes(
  t: TestServer,
  upload: { upload_url: string; upload_method: string; upload_headers: Record<string, string> },
  bytes: Buffer,
  headers: Record<string, string> = {},
) {
  return fetch(reachable(t, upload.upload_url), {
    method: upload.upload_method,
    headers: { ...upload.upload_headers, ...headers },
    body: new Uint8Array(bytes),
  });
}

/** POST /attachments for these bytes and PUT them: the attachment's id, ready to name in attachment_ids. */
export async function uploaded(
  t: TestServer,
  guestHeaders: Record<string, string>,
  bytes: Buffer = png(),
  contentType = 'image/png',
): Promise<string> {
  const made = await call(t.url, 'POST', '/guest/v1/attachments', {
    headers: guestHeaders,
    json: { bytes: bytes.length, content_type: contentType },
  });
  if (made.status !== 201) throw new Error(`POST /attachments answered ${made.status}: ${made.text}`);
  const put = await putBytes(t, made.json, bytes);
  if (!put.ok) throw new Error(`the upload answered ${put.status}: ${await put.text()}`);
  return made.json.id as string;
}
