import { Writable } from 'node:stream';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/domain/context.js';
import { DomainError } from '../src/domain/errors.js';
import { signAsApp } from '../src/domain/webhooks/app-secret.js';
import { createLogger } from '../src/lib/logger.js';
import { memberOf, staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/server.js';

// Each app-mode's own webhook secret, for the posts its workflows' webhook steps will make to the
// customer's servers: shown once, kept sealed, renewed at will (the old one stops at once), read
// back only as "set, since when".

let t: TestServer;
let app: StaffApp;
const lines: string[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await startTestServer({ log: createLogger('debug', sink) });
  app = await staffApp(t);
});
afterAll(() => t?.close());

const { ok, refused, gql } = staffApi(
  () => t.url,
  () => app.owner,
);
const RENEW = 'mutation($m: ID!) { renewAppWebhookSecret(appModeId: $m) { appModeId secret secretHint createdAt } }';
const STATE = 'query($m: ID!) { appWebhookSecret(appModeId: $m) { appModeId set secretHint createdAt } }';
const stripe = new Stripe('sk_test_unused');

/** Whether Stripe's own library accepts a post signed with this header under this secret. */
function verifies(body: string, header: string, secret: string): boolean {
  try {
    stripe.webhooks.constructEvent(body, header, secret);
    return true;
  } catch {
    return false;
  }
}

describe("an app-mode's webhook secret", () => {
  it('is unset at first, and a workflow step cannot sign with it then', async () => {
    const own = await staffApp(t);
    expect((await ok(STATE, { m: own.modes.live }, own.owner)).appWebhookSecret).toEqual({
      appModeId: own.modes.live,
      set: false,
      secretHint: null,
      createdAt: null,
    });
    const refusal = await signAsApp(systemContext(t.svc, 'workflow'), own.modes.live, '{}').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ status: 409, code: 'app_webhook_secret_unset' });
  });

  it('is shown once, kept sealed, read back as set since when (never its value), and signs what Stripe’s library verifies', async () => {
    const { renewAppWebhookSecret: made } = await ok(RENEW, { m: app.modes.live });
    expect(made.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(made).toMatchObject({ appModeId: app.modes.live, secretHint: `whsec_…${made.secret.slice(-4)}` });
    expect(new Date(made.createdAt).getTime()).toBe(t.clock.now().getTime());

    const row = await t.svc.db.appWebhookSecret.findUniqueOrThrow({ where: { appModeId: app.modes.live } });
    expect(row.secretEnc).not.toContain(made.secret.slice(6));
    expect(t.svc.secrets.open(row.secretEnc)).toBe(made.secret);

    const state = await gql(STATE, { m: app.modes.live }, app.owner);
    expect(state.data.appWebhookSecret).toEqual({
      appModeId: app.modes.live,
      set: true,
      secretHint: made.secretHint,
      createdAt: made.createdAt,
    });
    expect(JSON.stringify(state)).not.toContain(made.secret);
    // The other mode keeps its own: none yet.
    expect((await ok(STATE, { m: app.modes.test })).appWebhookSecret.set).toBe(false);

    const body = JSON.stringify({ id: 'evt_workflow', type: 'workflow.step' });
    const header = await signAsApp(systemContext(t.svc, 'workflow'), app.modes.live, body);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifies(body, header, made.secret)).toBe(true);
    expect(verifies(`${body} `, header, made.secret)).toBe(false);
    // Never in a log line.
    expect(lines.join('')).not.toContain(made.secret.slice(6));
  });

  it('renewed, replaces the old one at once: what is signed from then on verifies only under the new one', async () => {
    const own = await staffApp(t);
    const first = (await ok(RENEW, { m: own.modes.test }, own.owner)).renewAppWebhookSecret;
    t.clock.advance(60_000);
    const second = (await ok(RENEW, { m: own.modes.test }, own.owner)).renewAppWebhookSecret;
    expect(second.secret).not.toBe(first.secret);
    expect(new Date(second.createdAt).getTime() - new Date(first.createdAt).getTime()).toBe(60_000);
    const body = '{"id":"evt_after_renewal"}';
    const header = await signAsApp(systemContext(t.svc, 'workflow'), own.modes.test, body);
    expect(verifies(body, header, second.secret)).toBe(true);
    expect(verifies(body, header, first.secret)).toBe(false);
    expect((await ok(STATE, { m: own.modes.test }, own.owner)).appWebhookSecret).toMatchObject({
      set: true,
      secretHint: second.secretHint,
      createdAt: second.createdAt,
    });
  });

  it('renewed 50 times at once, leaves exactly one secret: one of those answered, the only one that signs', async () => {
    const own = await staffApp(t);
    const answers = await Promise.all(Array.from({ length: 50 }, () => gql(RENEW, { m: own.modes.live }, own.owner)));
    expect(answers.flatMap((a) => a.errors ?? [])).toEqual([]);
    const secrets = answers.map((a) => a.data.renewAppWebhookSecret.secret as string);
    expect(new Set(secrets).size).toBe(50);
    expect(await t.svc.db.appWebhookSecret.count({ where: { appModeId: own.modes.live } })).toBe(1);
    const body = '{"id":"evt_race"}';
    const header = await signAsApp(systemContext(t.svc, 'workflow'), own.modes.live, body);
    expect(secrets.filter((s) => verifies(body, header, s))).toHaveLength(1);
  });

  it('is made by admins and owners only; every member may read whether it is set; another workspace’s app is unknown', async () => {
    const workspaceId = app.workspaceId;
    const agent = await memberOf(t, workspaceId, 'agent');
    expect((await refused(RENEW, { m: app.modes.live }, agent.token)).code).toBe('role_forbids');
    expect((await ok(STATE, { m: app.modes.live }, agent.token)).appWebhookSecret.appModeId).toBe(app.modes.live);
    const admin = await memberOf(t, workspaceId, 'admin');
    expect((await ok(RENEW, { m: app.modes.test }, admin.token)).renewAppWebhookSecret.secret).toMatch(/^whsec_/);

    const other = await staffApp(t);
    expect((await refused(RENEW, { m: other.modes.live })).code).toBe('not_found');
    expect((await refused(STATE, { m: other.modes.live })).code).toBe('not_found');
    expect((await refused(RENEW, { m: 'not-an-app-mode' })).code).toBe('not_found');
    expect(await t.svc.db.appWebhookSecret.count({ where: { appModeId: other.modes.live } })).toBe(0);
  });
});
