import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../src/domain/webhooks/signature.js';
import { sentEmail } from './support/email.js';
import { serverApi, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { call } from './support/http.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';

// The inbound email hooks' signatures and the email events, black-box: posts signed as a mail
// provider's converter signs them (right, wrong, stale, missing, under a rolled secret, to a hook
// not set up), and bounces, complaints and deliveries taken once each, suppressing what they must.

const DEPLOYMENT_SECRET = 'whsec_deployment_0123456789abcdef';
let t: TestServer;
let bare: TestServer;
let app: StaffApp;
let other: StaffApp;
let api: ReturnType<typeof staffApi>;

beforeAll(async () => {
  [t, bare] = await Promise.all([
    startTestServer({ config: testConfig({ inboundSecret: DEPLOYMENT_SECRET }) }),
    startTestServer({ config: testConfig({ inboundSecret: undefined }) }),
  ]);
  [app, other] = await Promise.all([staffApp(t, 'Garden'), staffApp(t, 'Other')]);
  api = staffApi(
    () => t.url,
    () => app.owner,
  );
});
afterAll(async () => {
  await Promise.all([t?.close(), bare?.close()]);
});

/** Posts `body` as the converter does: its exact bytes, signed (or with the header given). */
function post(server: TestServer, path: string, body: unknown, sign: { secret?: string; at?: Date; header?: string } = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const header = sign.header ?? (sign.secret ? signatureHeader(sign.secret, raw, sign.at ?? new Date()) : undefined);
  return call(server.url, 'POST', path, {
    headers: { 'Content-Type': 'application/json', ...(header ? { 'X-CRM-Signature': header } : {}) },
    body: raw,
  });
}

const eventsOf = (a: StaffApp) => `/public/v1/apps/${a.live.app_key}/email-events`;
const event = (over: Record<string, unknown> = {}) => ({
  id: unique('evt'),
  kind: 'delivered',
  message_id: '<nobody@crm.test>',
  address: 'someone@example.com',
  occurred_at: new Date().toISOString(),
  ...over,
});

describe('the hooks’ signatures', () => {
  it('take a post signed with the app-mode’s inbound secret, and refuse wrong, stale and missing ones (401)', async () => {
    const secret = app.live.inbound_secret;
    expect((await post(t, eventsOf(app), event(), { secret })).status).toBe(202);
    for (const [sign, says] of [
      [{ secret: other.live.inbound_secret }, /does not match/],
      [{ secret: app.test.inbound_secret }, /does not match/],
      [{ secret, at: new Date(Date.now() - 301_000) }, /more than five minutes/],
      [{ secret, at: new Date(Date.now() + 301_000) }, /more than five minutes/],
      [{}, /Sign the post/],
      [{ header: 'v1=abc' }, /must read t=/],
    ] as const) {
      const refused = await post(t, eventsOf(app), event(), sign);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(refused.json.detail).toMatch(says);
    }
  });

  it('check the signature over the raw bytes, before the body: a bad body signed wrong is 401, signed right 400 naming the field', async () => {
    const body = event({ kind: 'exploded' });
    expect((await post(t, eventsOf(app), body, { secret: 'nope' })).status).toBe(401);
    const refused = await post(t, eventsOf(app), body, { secret: app.live.inbound_secret });
    expect(refused.status).toBe(400);
    expect(refused.json.errors.map((e: { field: string }) => e.field)).toEqual(['kind']);
    // The same JSON with other whitespace is other bytes: the signature made over the first does not hold.
    const raw = JSON.stringify(event());
    const header = signatureHeader(app.live.inbound_secret, raw, new Date());
    expect((await post(t, eventsOf(app), ` ${raw}`, { header })).status).toBe(401);
    expect((await post(t, eventsOf(app), raw, { header })).status).toBe(202);
  });

  it('refuse a key that names no app as a wrong signature, and a body past the limit (413)', async () => {
    expect((await post(t, '/public/v1/apps/app_test_nosuchkey123/email-events', event(), { secret: 'x' })).status).toBe(401);
    const huge = event({ detail: 'x'.repeat(1_100_000) });
    expect((await post(t, eventsOf(app), huge, { secret: app.live.inbound_secret })).status).toBe(413);
  });

  it('take several v1 values (a roll), and a rolled secret’s predecessor only while it is kept', async () => {
    const mode = await staffApp(t, 'Rolling');
    const path = eventsOf(mode);
    const modeApi = staffApi(
      () => t.url,
      () => mode.owner,
    );
    const before = mode.live.inbound_secret;
    const roll = async (hours: number) =>
      (
        await modeApi.ok(
          'mutation($m: ID!, $h: Int) { rollInboundSecret(appModeId: $m, keepPreviousHours: $h) { inboundSecret previousValidUntil } }',
          {
            m: mode.modes.live,
            h: hours,
          },
        )
      ).rollInboundSecret as { inboundSecret: string; previousValidUntil: string | null };

    const kept = await roll(24);
    expect(kept.inboundSecret).not.toBe(before);
    expect(new Date(kept.previousValidUntil!).getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect((await post(t, path, event(), { secret: before })).status).toBe(202);
    expect((await post(t, path, event(), { secret: kept.inboundSecret })).status).toBe(202);

    const cut = await roll(0);
    expect(cut.previousValidUntil).toBeNull();
    expect((await post(t, path, event(), { secret: kept.inboundSecret })).status).toBe(401);
    const raw = JSON.stringify(event());
    const now = new Date();
    const old = signatureHeader(kept.inboundSecret, raw, now);
    const fresh = signatureHeader(cut.inboundSecret, raw, now);
    // The converter signing with both while it moves: one v1 that matches is enough.
    expect((await post(t, path, raw, { header: `${old},${fresh.split(',')[1]}` })).status).toBe(202);
    expect((await post(t, path, raw, { header: old })).status).toBe(401);
    // Only who manages the app's keys rolls it.
    const refused = await api.refused('mutation($m: ID!) { rollInboundSecret(appModeId: $m) { inboundSecret } }', { m: mode.modes.live });
    expect(refused.code).toBe('not_found'); // as every reach into another workspace's app-mode
  });

  it('answer 503 on the deployment-wide routes while no deployment secret is set, and take posts signed with it once set', async () => {
    for (const path of ['/public/v1/email-events', '/public/v1/inbound-email']) {
      const refused = await post(bare, path, event(), { secret: DEPLOYMENT_SECRET });
      expect(refused.status).toBe(503);
      expect(refused.json.code).toBe('not_set_up');
    }
    expect((await post(t, '/public/v1/email-events', event(), { secret: DEPLOYMENT_SECRET })).status).toBe(202);
    expect((await post(t, '/public/v1/email-events', event(), { secret: app.live.inbound_secret })).status).toBe(401);
  });
});

describe('email events', () => {
  /** A person of `a`'s live mode with this address, and an email sent to them. */
  async function mailed(a: StaffApp, address: string) {
    const externalId = unique('p');
    await serverApi(t, a.live.server_key).identify(externalId, { email: address });
    const contact = await t.svc.db.contact.findUniqueOrThrow({ where: { appModeId_externalId: { appModeId: a.modes.live, externalId } } });
    const sent = await sentEmail(t, { appModeId: a.modes.live, contactId: contact.id, address, topicId: null, links: [] });
    const send = await t.svc.db.emailSend.findUniqueOrThrow({ where: { id: sent.sendId } });
    return { externalId, send, messageId: `<${send.mailMessageId}>` };
  }
  const suppressed = (a: StaffApp, address: string) =>
    t.svc.db.emailSuppression.findUnique({ where: { appModeId_address: { appModeId: a.modes.live, address } } });

  it('a hard bounce suppresses the address and is told as email.bounced; a soft one is counted and suppresses nothing', async () => {
    const hard = await mailed(app, `hard_${unique('a')}@example.com`);
    const soft = await mailed(app, `soft_${unique('a')}@example.com`);
    const secret = app.live.inbound_secret;
    const bounce = event({
      kind: 'bounce',
      hard: true,
      message_id: hard.messageId,
      address: hard.send.address,
      detail: '550 5.1.1 no such user',
    });
    expect((await post(t, eventsOf(app), bounce, { secret })).status).toBe(202);
    expect(
      (
        await post(t, eventsOf(app), event({ kind: 'bounce', hard: false, message_id: soft.messageId, address: soft.send.address }), {
          secret,
        })
      ).status,
    ).toBe(202);

    expect(await suppressed(app, hard.send.address)).toMatchObject({ reason: 'bounce', detail: '550 5.1.1 no such user' });
    expect(await suppressed(app, soft.send.address)).toBeNull();
    const [h, s] = await Promise.all([hard, soft].map((x) => t.svc.db.emailSend.findUniqueOrThrow({ where: { id: x.send.id } })));
    expect(h!.bouncedAt).not.toBeNull();
    expect(s!.bouncedAt).toBeNull();
    expect(s!.softBounces).toBe(1);

    const told = await t.svc.db.outboxEvent.findMany({ where: { appModeId: app.modes.live, topic: 'email.bounced' } });
    const ofHard = told.find((o) => (o.data as { email_id: string }).email_id === hard.send.id);
    expect(ofHard).toMatchObject({
      externalId: hard.externalId,
      data: { hard: true, address: hard.send.address, message_id: hard.send.messageId },
    });
    expect(
      told.some((o) => (o.data as { email_id: string }).email_id === soft.send.id && (o.data as { hard: boolean }).hard === false),
    ).toBe(true);
  });

  it('the same provider event posted twice, or 20 times at once, is counted once', async () => {
    const one = await mailed(app, `twice_${unique('a')}@example.com`);
    const same = event({ kind: 'bounce', hard: false, message_id: one.messageId, address: one.send.address });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(t, eventsOf(app), same, { secret: app.live.inbound_secret })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    expect((await t.svc.db.emailSend.findUniqueOrThrow({ where: { id: one.send.id } })).softBounces).toBe(1);
    expect(await t.svc.db.outboxEvent.count({ where: { topic: 'email.bounced', data: { path: ['email_id'], equals: one.send.id } } })).toBe(
      1,
    );
  });

  it('a complaint suppresses the address and a delivery is counted, in the message’s statistics', async () => {
    const one = await mailed(app, `spam_${unique('a')}@example.com`);
    const secret = app.live.inbound_secret;
    await post(t, eventsOf(app), event({ kind: 'delivered', message_id: one.messageId, address: one.send.address }), { secret });
    await post(t, eventsOf(app), event({ kind: 'complaint', message_id: one.send.mailMessageId, address: one.send.address }), { secret });
    expect(await suppressed(app, one.send.address)).toMatchObject({ reason: 'complaint' });
    const stats = await api.ok('query($id: ID!) { emailMessage(id: $id) { statistics { delivered complained bounced softBounced } } }', {
      id: one.send.messageId,
    });
    expect(stats.emailMessage.statistics).toEqual({ delivered: 1, complained: 1, bounced: 0, softBounced: 0 });
  });

  it('an app’s route never reaches another app’s email; the deployment’s route reaches the app its email names', async () => {
    const theirs = await mailed(other, `theirs_${unique('a')}@example.com`);
    const bounce = event({ kind: 'bounce', hard: true, message_id: theirs.messageId, address: theirs.send.address });
    expect((await post(t, eventsOf(app), bounce, { secret: app.live.inbound_secret })).status).toBe(202);
    expect((await t.svc.db.emailSend.findUniqueOrThrow({ where: { id: theirs.send.id } })).bouncedAt).toBeNull();
    expect(await suppressed(other, theirs.send.address)).toBeNull();
    // The posting app's own list takes the address it was told of.
    expect(await suppressed(app, theirs.send.address)).toMatchObject({ reason: 'bounce' });

    expect((await post(t, '/public/v1/email-events', { ...bounce, id: unique('evt') }, { secret: DEPLOYMENT_SECRET })).status).toBe(202);
    expect((await t.svc.db.emailSend.findUniqueOrThrow({ where: { id: theirs.send.id } })).bouncedAt).not.toBeNull();
    expect(await suppressed(other, theirs.send.address)).toMatchObject({ reason: 'bounce' });
  });

  it('staff take an address off the list saying why, kept in its history', async () => {
    const address = `off_${unique('a')}@example.com`;
    await post(t, eventsOf(app), event({ kind: 'bounce', hard: true, address }), { secret: app.live.inbound_secret });
    expect(await suppressed(app, address)).not.toBeNull();
    const refused = await api.refused(
      'mutation($m: ID!, $a: String!) { unsuppressEmailAddress(appModeId: $m, address: $a, reason: "  ") }',
      {
        m: app.modes.live,
        a: address,
      },
    );
    expect(refused.errors).toEqual([expect.objectContaining({ field: 'reason' })]);
    const done = await api.ok(
      'mutation($m: ID!, $a: String!) { unsuppressEmailAddress(appModeId: $m, address: $a, reason: "Mailbox fixed") }',
      {
        m: app.modes.live,
        a: address,
      },
    );
    expect(done.unsuppressEmailAddress).toBe(true);
    expect(await suppressed(app, address)).toBeNull();
    const history = await api.ok(
      'query($m: ID!) { emailSuppressionRemovals(appModeId: $m) { edges { node { address was reason removedBy { email } } } } }',
      {
        m: app.modes.live,
      },
    );
    expect(history.emailSuppressionRemovals.edges[0].node).toEqual({
      address,
      was: 'bounce',
      reason: 'Mailbox fixed',
      removedBy: { email: app.ownerEmail },
    });
  });
});
