import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBlobSettings } from '../src/lib/blobs/open.js';
import { S3BlobStore } from '../src/lib/blobs/s3.js';
import type { BlobStore } from '../src/lib/blobs/store.js';
import { png } from './support/pictures.js';
import { startLocalS3, type LocalS3 } from './support/s3.js';
import { type TestServer, startTestServer } from './support/server.js';

// The blob store's one interface, held by both stores: PostgreSQL (the default, with the service's
// own signed routes) and S3 (against a local S3-compatible server that checks signatures).

let t: TestServer;
let s3: LocalS3;
let stores: Record<'postgres' | 's3', BlobStore>;
beforeAll(async () => {
  t = await startTestServer();
  s3 = await startLocalS3(t.clock);
  stores = { postgres: t.svc.blobs, s3: new S3BlobStore(s3.settings, () => t.clock.now()) };
});
afterAll(async () => {
  stores?.s3.close();
  await s3?.close();
  await t?.close();
});

/** Addresses of the PostgreSQL store carry BASE_URL; the test server listens elsewhere. */
const reach = (url: string) => (url.startsWith(t.svc.config.baseUrl) ? t.url + url.slice(t.svc.config.baseUrl.length) : url);
const get = (url: string) => fetch(reach(url));

describe.each(['postgres', 's3'] as const)('the %s blob store', (kind) => {
  const store = () => stores[kind];

  it('keeps bytes by key, reads them, their head without the rest, and deletes many', async () => {
    const bytes = png(40, 30);
    await store().put(`test/${kind}/a`, bytes, 'image/png');
    await store().put(`test/${kind}/b`, Buffer.from('second'), 'text/plain');
    expect(await store().read(`test/${kind}/a`)).toEqual({ bytes, contentType: 'image/png' });
    expect(await store().head(`test/${kind}/a`, 16)).toEqual({ head: bytes.subarray(0, 16), size: bytes.length, contentType: 'image/png' });
    // A head longer than the object is the whole object.
    expect((await store().head(`test/${kind}/b`, 1000))!.head.toString()).toBe('second');
    await store().put(`test/${kind}/empty`, Buffer.alloc(0), 'image/png');
    expect(await store().head(`test/${kind}/empty`, 16)).toEqual({ head: Buffer.alloc(0), size: 0, contentType: 'image/png' });

    await store().put(`test/${kind}/a`, Buffer.from('replaced'), 'text/plain');
    expect((await store().read(`test/${kind}/a`))!.bytes.toString()).toBe('replaced');

    await store().deleteMany([`test/${kind}/a`, `test/${kind}/empty`, `test/${kind}/never-there`]);
    expect(await store().read(`test/${kind}/a`)).toBeUndefined();
    expect(await store().head(`test/${kind}/empty`, 16)).toBeUndefined();
    expect(await store().read(`test/${kind}/b`)).toBeDefined();
    await store().deleteMany([]);
  });

  it('gives a read address that answers the bytes with the type asked, then refuses it once expired or altered', async () => {
    const bytes = png(2, 3);
    await store().put(`test/${kind}/read`, bytes, 'application/octet-stream');
    const read = await store().readAddress(`test/${kind}/read`, { seconds: 600, contentType: 'image/png' });
    expect(read.method).toBe('GET');
    expect(read.expiresAt.getTime()).toBeGreaterThanOrEqual(t.clock.now().getTime() + 600_000);
    const got = await get(read.url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);

    // Another key under the same signature.
    const other =
      kind === 's3'
        ? read.url.replace('/read?', '/b?')
        : read.url.replace(/(.)(\.[^.]+)$/, (_, c: string, rest: string) => `${c === 'x' ? 'y' : 'x'}${rest}`);
    expect(other).not.toBe(read.url);
    expect((await get(other)).status).toBe(403);

    t.clock.set(new Date(read.expiresAt.getTime() + 1000));
    expect((await get(read.url)).status).toBe(403);
  });
});

describe('S3 upload addresses', () => {
  it('sign the type and exact size: the bucket takes the declared upload and refuses another size or type, and a late one', async () => {
    const store = stores.s3;
    const bytes = png(9, 9);
    const up = await store.uploadAddress('test/s3/upload', { contentType: 'image/png', size: bytes.length, seconds: 900 });
    expect(up).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'image/png' } });
    expect(new URL(up.url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    const put = (body: Buffer, type = 'image/png') =>
      fetch(up.url, { method: 'PUT', headers: { 'Content-Type': type }, body: new Uint8Array(body) });

    expect((await put(Buffer.concat([bytes, Buffer.alloc(1)]))).status).toBe(403);
    expect((await put(bytes.subarray(1))).status).toBe(403);
    expect(await put(bytes, 'text/html')).toMatchObject({ status: 403 });
    expect(await store.read('test/s3/upload')).toBeUndefined();

    expect((await put(bytes)).status).toBe(200);
    expect(await store.read('test/s3/upload')).toEqual({ bytes, contentType: 'image/png' });

    t.clock.advance(901_000);
    expect((await put(bytes)).status).toBe(403);
    expect(s3.refused).toContain('expired');
  });
});

describe('blob store configuration', () => {
  it('is PostgreSQL unless S3 is asked for, and a start with S3 settings that cannot work stops', () => {
    expect(readBlobSettings({})).toEqual({ store: 'postgres' });
    expect(
      readBlobSettings({
        BLOB_STORE: 's3',
        S3_BUCKET: 'b1',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'k',
        S3_SECRET_ACCESS_KEY: 's',
      }),
    ).toEqual({
      store: 's3',
      s3: {
        bucket: 'b1',
        endpoint: 'http://127.0.0.1:9000',
        region: 'us-east-1',
        forcePathStyle: true,
        accessKeyId: 'k',
        secretAccessKey: 's',
      },
    });
    expect(() => readBlobSettings({ BLOB_STORE: 'disk' })).toThrow(/BLOB_STORE/);
    expect(() => readBlobSettings({ BLOB_STORE: 's3' })).toThrow(/S3_BUCKET/);
    expect(() => readBlobSettings({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(/go together/);
    expect(() => readBlobSettings({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(() => readBlobSettings({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
  });
});
