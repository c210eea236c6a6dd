import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pictureAddress } from '../src/domain/attachments/addresses.js';
import { UNUSED_ATTACHMENT_HOURS } from '../src/domain/attachments/limits.js';
import { sweepUnusedAttachments } from '../src/domain/attachments/sweep.js';
import { useAttachments } from '../src/domain/attachments/use.js';
import { contextOf, scopeOf, transaction, type Ctx, type GuestCaller } from '../src/domain/context.js';
import { DomainError } from '../src/domain/errors.js';
import { ManualClock } from '../src/lib/clock.js';
import { call, userToken } from './support/http.js';
import { png, putBytes } from './support/pictures.js';
import { startLocalS3, type LocalS3 } from './support/s3.js';
import { type SeededApp, type TestServer, seedApp, startTestServer, testConfig } from './support/server.js';

// The attachment flow with BLOB_STORE=s3, against a local S3-compatible server that checks
// signatures: the app uploads straight to the bucket with a presigned address, the bytes are
// checked when the attachment is first used, pictures are read through presigned addresses, and
// erase and the sweep remove the objects.

let t: TestServer;
let app: SeededApp;
let s3: LocalS3;
beforeAll(async () => {
  const clock = new ManualClock();
  s3 = await startLocalS3(clock);
  t = await startTestServer({ clock, config: testConfig({ blobs: { store: 's3', s3: s3.settings } }) });
  app = await seedApp(t.svc);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

async function guest(sub: string, mode: 'live' | 'test' = 'live') {
  const now = Math.floor(t.clock.now().getTime() / 1000);
  return {
    'X-CRM-App-Key': app[mode].app_key,
    Authorization: `Bearer ${await userToken(app[mode].identity_secret, { sub, iat: now, exp: now + 7 * 86_400 })}`,
  };
}
const create = async (sub: string, bytes: number, contentType = 'image/png') =>
  call(t.url, 'POST', '/guest/v1/attachments', { headers: await guest(sub), json: { bytes, content_type: contentType } });

async function guestCtx(sub: string): Promise<Ctx<GuestCaller>> {
  const row = await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } });
  return contextOf(t.svc, { kind: 'guest', ...scopeOf(row), externalId: sub, sdk: undefined });
}
async function use(sub: string, ids: string[]) {
  try {
    return { pictures: await transaction(await guestCtx(sub), (tx) => useAttachments(tx, { ids, partId: randomUUID() })) };
  } catch (err) {
    if (err instanceof DomainError) return { refused: { status: err.status, code: err.code, errors: err.errors } };
    throw err;
  }
}
const objectOf = async (id: string) => t.svc.blobs.read(`attachments/${(await guestCtx('x')).caller.appModeId}/${id}`);

describe('attachments on an S3-compatible store', () => {
  it('uploads a real PNG straight to the bucket, checks it at first use, and reads it back at a presigned address', async () => {
    const bytes = png(12, 8);
    const made = await create('sam', bytes.length);
    expect(made.status).toBe(201);
    const url = new URL(made.json.upload_url);
    expect(url.origin).toBe(s3.settings.endpoint);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(made.json.upload_headers).toEqual({ 'Content-Type': 'image/png' });
    expect((await putBytes(t, made.json, bytes)).status).toBe(200);
    // Not checked yet: nothing passed through the service.
    expect((await t.svc.db.attachment.findUniqueOrThrow({ where: { id: made.json.id } })).uploadedAt).toBeNull();

    const used = await use('sam', [made.json.id]);
    expect(used.pictures).toEqual([{ id: made.json.id, contentType: 'image/png', size: bytes.length, width: 12, height: 8 }]);
    expect(await t.svc.db.attachment.findUniqueOrThrow({ where: { id: made.json.id } })).toMatchObject({
      width: 12,
      height: 8,
      uploadedAt: expect.any(Date),
    });

    const read = await pictureAddress(t.ctx, (await guestCtx('sam')).caller.appModeId, used.pictures![0]!);
    expect(new URL(read.url).origin).toBe(s3.settings.endpoint);
    const got = await fetch(read.url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    // Altered, then expired: refused by the bucket.
    expect((await fetch(read.url.replace(made.json.id, randomUUID()))).status).toBe(403);
    t.clock.set(new Date(read.expiresAt.getTime() + 1000));
    expect((await fetch(read.url)).status).toBe(403);
  });

  it('refuses at first use a renamed text file the bucket took, with 422 attachment_invalid naming the index', async () => {
    const ok = png();
    const good = await create('tom', ok.length);
    await putBytes(t, good.json, ok);
    const text = Buffer.from('not a picture at all, only words in a file called cat.png');
    const renamed = await create('tom', text.length);
    expect((await putBytes(t, renamed.json, text)).status).toBe(200);
    const r = await use('tom', [good.json.id, renamed.json.id]);
    expect(r.refused).toMatchObject({
      status: 422,
      code: 'attachment_invalid',
      errors: [{ field: 'attachment_ids.1', message: expect.stringContaining('not a JPEG, PNG, GIF or WebP') }],
    });
    // The good one was not used by the refused message.
    expect((await t.svc.db.attachment.findUniqueOrThrow({ where: { id: good.json.id } })).partId).toBeNull();
  });

  it('the bucket refuses an upload of another size or type than the address was signed for', async () => {
    const bytes = png();
    const made = await create('una', bytes.length);
    expect((await putBytes(t, made.json, Buffer.concat([bytes, Buffer.alloc(3)]))).status).toBe(403);
    expect((await putBytes(t, made.json, bytes, { 'Content-Type': 'text/html' })).status).toBe(403);
    expect((await use('una', [made.json.id])).refused).toMatchObject({
      code: 'attachment_invalid',
      errors: [{ field: 'attachment_ids.0', message: 'its bytes have not been uploaded' }],
    });
    t.clock.advance(15 * 60_000 + 1000);
    expect((await putBytes(t, made.json, bytes)).status).toBe(403);
  });

  it("erase and the sweep remove the objects; the service's own blob routes are not served", async () => {
    const bytes = png();
    const kept = await create('vic', bytes.length);
    await putBytes(t, kept.json, bytes);
    const unused = await create('wes', bytes.length);
    await putBytes(t, unused.json, bytes);
    expect(await objectOf(kept.json.id)).toBeDefined();

    expect(
      (await call(t.url, 'DELETE', '/server/v1/contacts/vic', { headers: { Authorization: `Bearer ${app.live.server_key}` } })).status,
    ).toBe(202);
    await t.engine.runDue();
    expect(await objectOf(kept.json.id)).toBeUndefined();

    t.clock.advance(UNUSED_ATTACHMENT_HOURS * 3_600_000 + 1000);
    expect(await sweepUnusedAttachments(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await objectOf(unused.json.id)).toBeUndefined();
    expect(await t.svc.db.attachment.findUnique({ where: { id: unused.json.id } })).toBeNull();

    expect((await fetch(`${t.url}/blobs/anything.at-all`)).status).toBe(404);
  });
});
