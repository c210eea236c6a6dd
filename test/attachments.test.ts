import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pictureAddress } from '../src/domain/attachments/addresses.js';
import { MAX_ATTACHMENT_BYTES, UNUSED_ATTACHMENT_HOURS } from '../src/domain/attachments/limits.js';
import { rows, sql } from '../src/db/sql.js';
import { sweepUnusedAttachments } from '../src/domain/attachments/sweep.js';
import { useAttachments } from '../src/domain/attachments/use.js';
import { contextOf, scopeOf, transaction, type Ctx, type GuestCaller } from '../src/domain/context.js';
import { DomainError } from '../src/domain/errors.js';
import { call, userToken } from './support/http.js';
import { gif, png, putBytes, reachable, uploaded } from './support/pictures.js';
import { type SeededApp, type TestServer, startTestServer, startWithApp, testConfig } from './support/server.js';

// POST /guest/v1/attachments and the upload flow on the default store (PostgreSQL, the service's
// own signed routes); naming pictures in a part (useAttachments, as the messenger's routes do);
// their read addresses; erase and the sweep.

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t?.close());

type Mode = 'live' | 'test';
/** A user's headers; the token lives by the service's clock, which these tests move. */
async function guest(sub: string, mode: Mode = 'live') {
  const now = Math.floor(t.clock.now().getTime() / 1000);
  return {
    'X-CRM-App-Key': app[mode].app_key,
    Authorization: `Bearer ${await userToken(app[mode].identity_secret, { sub, iat: now, exp: now + 7 * 86_400 })}`,
  };
}
const create = async (sub: string, body: unknown, mode: Mode = 'live') =>
  call(t.url, 'POST', '/guest/v1/attachments', { headers: await guest(sub, mode), json: body });

/** The context the messenger's routes run in for this user. */
async function guestCtx(sub: string, mode: Mode = 'live'): Promise<Ctx<GuestCaller>> {
  const row = await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey: app[mode].app_key } });
  return contextOf(t.svc, { kind: 'guest', ...scopeOf(row), externalId: sub, sdk: undefined });
}

/** Names the ids in a new part, as a message would; the refusal when there is one. */
async function use(sub: string, ids: string[], mode: Mode = 'live') {
  const partId = randomUUID();
  try {
    const pictures = await transaction(await guestCtx(sub, mode), (tx) => useAttachments(tx, { ids, partId }));
    return { partId, pictures };
  } catch (err) {
    if (err instanceof DomainError) return { refused: { status: err.status, code: err.code, fields: err.errors.map((e) => e.field) } };
    throw err;
  }
}

const blobCount = async (id: string) => await t.svc.db.blob.count({ where: { key: { endsWith: `/${id}` } } });

describe('POST /guest/v1/attachments', () => {
  it('answers 201 with an id and the address to PUT the bytes at, with its method, headers and expiry', async () => {
    const r = await create('ann', { bytes: 1234, content_type: 'image/png' });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ id: expect.any(String), upload_method: 'PUT', upload_headers: { 'Content-Type': 'image/png' } });
    expect(r.json.upload_url).toMatch(new RegExp(`^${t.svc.config.baseUrl}/blobs/[\\w-]+\\.[\\w-]+$`));
    const expires = new Date(r.json.upload_expires_at).getTime() - t.clock.now().getTime();
    expect(expires).toBeGreaterThanOrEqual(15 * 60_000);
    expect(expires).toBeLessThan(15 * 60_000 + 1000);
  });

  it('refuses a size beyond MaxAttachmentBytes, an empty one and a type that is not a picture, naming the field', async () => {
    for (const [body, field] of [
      [{ bytes: MAX_ATTACHMENT_BYTES + 1, content_type: 'image/png' }, 'bytes'],
      [{ bytes: 0, content_type: 'image/png' }, 'bytes'],
      [{ bytes: 1.5, content_type: 'image/png' }, 'bytes'],
      [{ bytes: 10, content_type: 'image/svg+xml' }, 'content_type'],
      [{ bytes: 10 }, 'content_type'],
    ] as const) {
      const r = await create('ann', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect((await create('ann', { bytes: MAX_ATTACHMENT_BYTES, content_type: 'image/webp' })).status).toBe(201);
  });

  it('answers 404 while the messenger is switched off for the app, and makes nothing', async () => {
    await t.svc.db.appMode.update({ where: { appKey: app.test.app_key }, data: { messengerOn: false } });
    try {
      const before = await t.svc.db.attachment.count();
      const r = await create('ann', { bytes: 10, content_type: 'image/png' }, 'test');
      expect(r.status).toBe(404);
      expect(r.json.code).toBe('not_found');
      expect(await t.svc.db.attachment.count()).toBe(before);
    } finally {
      await t.svc.db.appMode.update({ where: { appKey: app.test.app_key }, data: { messengerOn: true } });
    }
    // The live mode's messenger was on all along; the test mode's is on again.
    expect((await create('ann', { bytes: 10, content_type: 'image/png' }, 'test')).status).toBe(201);
  });

  it('refuses without a user', async () => {
    const r = await call(t.url, 'POST', '/guest/v1/attachments', {
      headers: { 'X-CRM-App-Key': app.live.app_key },
      json: { bytes: 10, content_type: 'image/png' },
    });
    expect(r.status).toBe(401);
  });
});

describe('the upload flow', () => {
  it('takes a real PNG, names it in a part with its dimensions, and serves it back at a short-lived address', async () => {
    const bytes = png(7, 5);
    const made = await create('bea', { bytes: bytes.length, content_type: 'image/png' });
    const put = await putBytes(t, made.json, bytes);
    expect(put.status).toBe(204);

    const used = await use('bea', [made.json.id]);
    expect(used.pictures).toEqual([{ id: made.json.id, contentType: 'image/png', size: bytes.length, width: 7, height: 5 }]);
    expect(await t.svc.db.attachment.findUniqueOrThrow({ where: { id: made.json.id } })).toMatchObject({
      partId: used.partId,
      position: 0,
    });

    const read = await pictureAddress(t.ctx, (await guestCtx('bea')).caller.appModeId, used.pictures![0]!);
    expect(read.method).toBe('GET');
    const got = await fetch(reachable(t, read.url));
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('over HTTP only, as an app does it: upload, name the picture in a conversation start, read it from the part', async () => {
    const h = await guest('app-user');
    const bytes = png(16, 9);
    const id = await uploaded(t, h, bytes);
    const started = await call(t.url, 'POST', '/guest/v1/conversations', {
      headers: { ...h, 'Idempotency-Key': randomUUID() },
      json: { text: 'Look at this', attachment_ids: [id] },
    });
    expect(started.status).toBe(201);
    const shown = await call(t.url, 'GET', `/guest/v1/conversations/${started.json.id}`, { headers: h });
    const pictures = shown.json.parts.flatMap((p: { attachments: unknown[] }) => p.attachments);
    expect(pictures).toEqual([expect.objectContaining({ id, content_type: 'image/png', bytes: bytes.length, width: 16, height: 9 })]);
    const got = await fetch(reachable(t, pictures[0].url));
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    // Used once: a second start naming it is refused, naming the index.
    const again = await call(t.url, 'POST', '/guest/v1/conversations', {
      headers: { ...h, 'Idempotency-Key': randomUUID() },
      json: { text: 'Again', attachment_ids: [id] },
    });
    expect(again.status).toBe(422);
    expect(again.json).toMatchObject({ code: 'attachment_invalid', errors: [{ field: 'attachment_ids.0' }] });
  });

  it('refuses a renamed text file with 422 attachment_invalid at once, and keeps nothing', async () => {
    const text = Buffer.from('Dear diary, today I renamed a text file to holiday.png and hoped for the best.\n');
    const made = await create('bea', { bytes: text.length, content_type: 'image/png' });
    const put = await putBytes(t, made.json, text);
    expect(put.status).toBe(422);
    expect(put.headers.get('content-type')).toContain('application/problem+json');
    const problem = await put.json();
    expect(problem).toMatchObject({ code: 'attachment_invalid', errors: [{ field: 'body' }] });
    expect(await blobCount(made.json.id)).toBe(0);
    // Not usable either.
    expect((await use('bea', [made.json.id])).refused).toEqual({ status: 422, code: 'attachment_invalid', fields: ['attachment_ids.0'] });
  });

  it('refuses a picture of another type than declared, and takes the right one at the same address after', async () => {
    const made = await create('bea', { bytes: gif(4, 4).length, content_type: 'image/jpeg' });
    expect((await putBytes(t, made.json, gif(4, 4))).status).toBe(422);
    const asGif = await create('bea', { bytes: gif(4, 4).length, content_type: 'image/gif' });
    expect((await putBytes(t, asGif.json, gif(4, 4))).status).toBe(204);
    expect((await use('bea', [asGif.json.id])).pictures).toEqual([
      { id: asGif.json.id, contentType: 'image/gif', size: 32, width: 4, height: 4 },
    ]);

    const bytes = png();
    const retried = await create('bea', { bytes: bytes.length, content_type: 'image/png' });
    const wrong = Buffer.alloc(bytes.length, 'x');
    expect((await putBytes(t, retried.json, wrong)).status).toBe(422);
    expect((await putBytes(t, retried.json, bytes)).status).toBe(204);
  });

  it('refuses bytes fewer or more than declared, and a Content-Type other than the address says', async () => {
    const bytes = png();
    const made = await create('bea', { bytes: bytes.length + 1, content_type: 'image/png' });
    const short = await putBytes(t, made.json, bytes);
    expect(short.status).toBe(422);
    expect((await short.json()).code).toBe('attachment_invalid');
    const long = await putBytes(t, made.json, Buffer.concat([bytes, Buffer.alloc(2)]));
    expect(long.status).toBe(422);
    // A body far beyond the declared size is refused as its length is announced, unread.
    const huge = await putBytes(t, made.json, Buffer.alloc(5 * 1024 * 1024));
    expect(huge.status).toBe(422);
    const typed = await putBytes(t, made.json, Buffer.concat([bytes, Buffer.alloc(1)]), { 'Content-Type': 'text/html' });
    expect(typed.status).toBe(400);
    expect((await typed.json()).errors[0].field).toBe('Content-Type');
    expect(await blobCount(made.json.id)).toBe(0);
  });

  it('refuses an upload address once expired or altered', async () => {
    const bytes = png();
    const made = await create('bea', { bytes: bytes.length, content_type: 'image/png' });
    const url = made.json.upload_url as string;
    const [body, mac] = url.slice(url.lastIndexOf('/') + 1).split('.') as [string, string];
    // Another key in the same signed body shape: the signature no longer fits.
    const forgedBody = Buffer.from(Buffer.from(body, 'base64url').toString().replace(made.json.id, randomUUID())).toString('base64url');
    const forged = await putBytes(t, { ...made.json, upload_url: url.replace(body, forgedBody) }, bytes);
    expect(forged.status).toBe(403);
    expect((await forged.json()).code).toBe('address_invalid');
    const flipped = await putBytes(
      t,
      { ...made.json, upload_url: url.replace(`.${mac}`, `.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`) },
      bytes,
    );
    expect((await flipped.json()).code).toBe('address_invalid');

    t.clock.advance(15 * 60_000 + 1000);
    const late = await putBytes(t, made.json, bytes);
    expect(late.status).toBe(403);
    expect((await late.json()).code).toBe('address_expired');
  });

  it('a read address works, then is refused once expired or altered; an upload address does not read', async () => {
    const bytes = png(2, 2);
    const id = await uploaded(t, await guest('cid'), bytes);
    const [picture] = (await use('cid', [id])).pictures!;
    // Just past the start of a five-minute step, so the second ask below falls in the same one.
    t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / 300_000) * 300_000 + 1000));
    const read = await pictureAddress(t.ctx, (await guestCtx('cid')).caller.appModeId, picture!);
    expect(read.expiresAt.getTime()).toBeGreaterThanOrEqual(t.clock.now().getTime() + 3_600_000);
    // Asked again within its five minutes: the same address, so a cache holds.
    t.clock.advance(1000);
    expect((await pictureAddress(t.ctx, (await guestCtx('cid')).caller.appModeId, picture!)).url).toBe(read.url);
    expect((await fetch(reachable(t, read.url))).status).toBe(200);

    const token = read.url.slice(read.url.lastIndexOf('/') + 1);
    const altered = read.url.replace(
      token,
      token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    );
    const refused = await fetch(reachable(t, altered));
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe('address_invalid');
    // The upload's address is signed for PUT only.
    const made = await create('cid', { bytes: bytes.length, content_type: 'image/png' });
    expect((await fetch(reachable(t, made.json.upload_url))).status).toBe(403);

    t.clock.set(new Date(read.expiresAt.getTime() + 1000));
    const expired = await fetch(reachable(t, read.url));
    expect(expired.status).toBe(403);
    expect((await expired.json()).code).toBe('address_expired');
  });

  it('takes twenty uploads at once (more than the database connections of the process)', async () => {
    const bytes = png(6, 6);
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(`crowd-${i}`, { bytes: bytes.length, content_type: 'image/png' })),
    );
    const puts = await Promise.all(made.map((m) => putBytes(t, m.json, bytes)));
    expect(puts.map((p) => p.status)).toEqual(Array(20).fill(204));
    expect(await t.svc.db.attachment.count({ where: { id: { in: made.map((m) => m.json.id) }, uploadedAt: { not: null } } })).toBe(20);
  });

  it('never replaces the bytes of a picture already sent', async () => {
    const bytes = png(5, 5);
    const made = await create('dan', { bytes: bytes.length, content_type: 'image/png' });
    expect((await putBytes(t, made.json, bytes)).status).toBe(204);
    expect((await use('dan', [made.json.id])).pictures).toHaveLength(1);
    const again = await putBytes(t, made.json, bytes);
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('attachment_used');
  });
});

describe('naming pictures in a message (useAttachments)', () => {
  it('takes up to four in order and refuses a fifth, naming attachment_ids', async () => {
    const h = await guest('eve');
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await uploaded(t, h, png(i + 1, 1)));
    expect((await use('eve', ids)).refused).toEqual({ status: 422, code: 'too_many_pictures', fields: ['attachment_ids'] });
    // Nothing was used by the refused message.
    expect(await t.svc.db.attachment.count({ where: { id: { in: ids }, partId: { not: null } } })).toBe(0);
    const four = await use('eve', ids.slice(0, 4));
    expect(four.pictures!.map((p) => [p.id, p.width])).toEqual(ids.slice(0, 4).map((id, i) => [id, i + 1]));
  });

  it("refuses another user's attachment and another app-mode's, as if there were none", async () => {
    const mine = await uploaded(t, await guest('fay'));
    const theirs = await uploaded(t, await guest('gus'));
    const otherMode = await uploaded(t, await guest('fay', 'test'));
    expect((await use('fay', [mine, theirs, otherMode])).refused).toEqual({
      status: 422,
      code: 'attachment_invalid',
      fields: ['attachment_ids.1', 'attachment_ids.2'],
    });
    // Still unused, each usable by its own user in its own mode.
    expect((await use('gus', [theirs])).pictures).toHaveLength(1);
    expect((await use('fay', [otherMode], 'test')).pictures).toHaveLength(1);
    expect((await use('fay', [mine])).pictures).toHaveLength(1);
  });

  it('uses an id once: a second message naming it is refused, as is the same id twice in one', async () => {
    const h = await guest('hal');
    const a = await uploaded(t, h);
    const b = await uploaded(t, h);
    expect((await use('hal', [b, b])).refused).toEqual({ status: 422, code: 'attachment_invalid', fields: ['attachment_ids.1'] });
    expect((await use('hal', [a])).pictures).toHaveLength(1);
    expect((await use('hal', [b, a])).refused).toEqual({ status: 422, code: 'attachment_invalid', fields: ['attachment_ids.1'] });
  });

  it('refuses an attachment whose bytes were never uploaded, and an unknown id', async () => {
    const made = await create('ida', { bytes: 100, content_type: 'image/png' });
    expect((await use('ida', [made.json.id, 'no-such-id'])).refused).toEqual({
      status: 422,
      code: 'attachment_invalid',
      fields: ['attachment_ids.0', 'attachment_ids.1'],
    });
  });

  it('gives one picture to one of two messages naming it at once', async () => {
    const id = await uploaded(t, await guest('jon'));
    const results = await Promise.all(Array.from({ length: 8 }, () => use('jon', [id])));
    expect(results.filter((r) => r.pictures).length).toBe(1);
    expect(results.filter((r) => r.refused?.code === 'attachment_invalid').length).toBe(7);
  });
});

describe('attachments at scale and over time', () => {
  it('fifty at once from one user: at most forty wait unused, the rest refused, none half made', async () => {
    const h = await guest('kim');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(t.url, 'POST', '/guest/v1/attachments', { headers: h, json: { bytes: 10, content_type: 'image/png' } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201).length).toBe(40);
    expect(answers.filter((a) => a.status === 422 && a.json.code === 'attachment_limit').length).toBe(10);
    expect(await t.svc.db.attachment.count({ where: { externalId: 'kim' } })).toBe(40);
  });

  it('sweeps attachments unused after a day, bytes and all, and keeps the ones sent', async () => {
    const h = await guest('lea');
    const sent = await uploaded(t, h);
    const waiting = await uploaded(t, h);
    await use('lea', [sent]);
    t.clock.advance(UNUSED_ATTACHMENT_HOURS * 3_600_000 - 60_000);
    await sweepUnusedAttachments(t.ctx);
    expect(await blobCount(waiting)).toBe(1);
    t.clock.advance(120_000);
    await sweepUnusedAttachments(t.ctx);
    expect(await t.svc.db.attachment.findUnique({ where: { id: waiting } })).toBeNull();
    expect(await blobCount(waiting)).toBe(0);
    expect(await t.svc.db.attachment.findUnique({ where: { id: sent } })).not.toBeNull();
    expect(await blobCount(sent)).toBe(1);
  });

  it("erase removes the person's attachments and their bytes in both modes, and no one else's", async () => {
    const live = await uploaded(t, await guest('max'));
    const test = await uploaded(t, await guest('max', 'test'));
    const other = await uploaded(t, await guest('ned'));
    await use('max', [live]);
    const r = await call(t.url, 'DELETE', '/server/v1/contacts/max', { headers: { Authorization: `Bearer ${app.live.server_key}` } });
    expect(r.status).toBe(202);
    await t.engine.runDue();
    expect(await t.svc.db.attachment.count({ where: { externalId: 'max' } })).toBe(0);
    expect(await blobCount(live)).toBe(0);
    expect(await blobCount(test)).toBe(0);
    expect(await blobCount(other)).toBe(1);
    // Within the erase block nothing new is kept for them.
    const again = await create('max', { bytes: 10, content_type: 'image/png' });
    expect(again.status).toBe(403);
    expect(again.json.code).toBe('erased');
  });
});

describe('what may wait to be sent, counted at the declared size', () => {
  const MiB = 1024 * 1024;
  const big = { bytes: 10 * MiB, content_type: 'image/jpeg' };
  /** What waits in an app-mode: pictures made and not yet in a message, and their declared bytes. */
  async function waitingIn(mode: Mode, externalId?: string) {
    const [row] = await rows<{ n: number; bytes: string }>(
      t.svc,
      sql`SELECT count(*)::int AS n, coalesce(sum(a.size), 0)::bigint AS bytes FROM attachment a JOIN app_mode m ON m.id = a.app_mode_id
          WHERE m.app_key = ${app[mode].app_key} AND a.part_id IS NULL AND (${externalId ?? null}::text IS NULL OR a.external_id = ${externalId ?? null})`,
    );
    return { n: row!.n, bytes: Number(row!.bytes) };
  }
  // A fresh minute of the per-address rate limit for each burst.
  const nextMinute = () => t.clock.advance(61_000);

  it('fifty of 10 MiB at once from one user, never uploaded: five wait (50 MiB), the rest refused naming the limit', async () => {
    nextMinute();
    const h = await guest('pam');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => call(t.url, 'POST', '/guest/v1/attachments', { headers: h, json: big })),
    );
    expect(answers.filter((a) => a.status === 201).length).toBe(5);
    const refused = answers.filter((a) => a.status === 422);
    expect(refused.length).toBe(45);
    expect(refused[0]!.json).toMatchObject({ code: 'attachment_limit', detail: expect.stringContaining('50 MiB') });
    expect(await waitingIn('live', 'pam')).toEqual({ n: 5, bytes: 50 * MiB });
    // Full: even the smallest picture waits for one to be sent or to lapse.
    expect((await create('pam', { bytes: 1, content_type: 'image/png' })).status).toBe(422);
  });

  it('a picture sent no longer waits: its bytes are free again for its user', async () => {
    nextMinute();
    const h = await guest('quin');
    for (let i = 0; i < 4; i++) expect((await create('quin', big)).status).toBe(201);
    const sent = await uploaded(t, h);
    expect((await create('quin', big)).status).toBe(422);
    await use('quin', [sent]);
    expect((await create('quin', big)).status).toBe(201);
  });

  it('what waits lapses after an hour unused: swept, it no longer counts', async () => {
    nextMinute();
    for (let i = 0; i < 5; i++) expect((await create('rex', big)).status).toBe(201);
    expect((await create('rex', big)).status).toBe(422);
    t.clock.advance(59 * 60_000);
    await sweepUnusedAttachments(t.ctx);
    expect((await create('rex', big)).status).toBe(422);
    t.clock.advance(2 * 60_000);
    while (await sweepUnusedAttachments(t.ctx));
    expect(await waitingIn('live', 'rex')).toEqual({ n: 0, bytes: 0 });
    expect((await create('rex', big)).status).toBe(201);
  });

  it("110 of 10 MiB at once from 22 users of one app-mode: exactly what fits in the app-mode's 1 GiB waits, the rest 429", async () => {
    nextMinute();
    const before = await waitingIn('test');
    const fits = Math.floor((1024 * MiB - before.bytes) / (10 * MiB));
    const users = Array.from({ length: 22 }, (_, i) => `crowd-${i}`);
    const headers = await Promise.all(users.map((u) => guest(u, 'test')));
    const answers = await Promise.all(
      Array.from({ length: 110 }, (_, i) => call(t.url, 'POST', '/guest/v1/attachments', { headers: headers[i % 22]!, json: big })),
    );
    expect(answers.filter((a) => a.status === 201).length).toBe(fits);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.length).toBe(110 - fits);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.json).toMatchObject({ code: 'attachment_app_limit', detail: expect.stringContaining('1024 MiB') });
      expect(r.headers.get('retry-after')).toBe('60');
    }
    expect((await waitingIn('test')).bytes).toBe(before.bytes + fits * 10 * MiB);
    // Another app-mode's users are not held by it.
    expect((await create('sam', big)).status).toBe(201);
  });
});

describe('rate limits of the blob addresses', () => {
  it('counts requests to /blobs/… per caller address, answering 429 with Retry-After beyond', async () => {
    const limited = await startTestServer({ config: testConfig({}, { blobAddressPerMinute: 3 }) });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.url}/blobs/not.signed`)).status);
      expect(statuses).toEqual([403, 403, 403, 429]);
      const refused = await fetch(`${limited.url}/blobs/not.signed`, { method: 'PUT', body: 'x' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
