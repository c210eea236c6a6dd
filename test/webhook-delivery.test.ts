import { createHmac, timingSafeEqual } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../src/domain/context.js';
import { emit } from '../src/domain/outbox.js';
import { LOG_TRIES, MAX_TRIES, RETRY_WAITS_MS } from '../src/domain/webhooks/schedule.js';
import { serverApi, staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { makeTestCertificate, startReceiver, type Receiver, type TestCertificate } from './support/https-receiver.js';
import { smtpServer } from './support/smtp.js';
import { ENGINES, sayIfTemporalSkipped, startTestServer, testConfig, type TestServer } from './support/server.js';

// Webhook posts: a change in the outbox becomes one delivery per endpoint that asks for its topic,
// posted signed (Stripe's own library verifies it), tried again on failure on the documented
// schedule, never again after a final answer, logged without bodies.

let t: TestServer;
let cert: TestCertificate;
let receiver: Receiver;
let answer = 200;
let app: StaffApp;
let smtp: Awaited<ReturnType<typeof smtpServer>>;

sayIfTemporalSkipped('test/webhook-delivery.test.ts');

const { ok } = staffApi(
  () => t.url,
  () => app.owner,
);
const ADD =
  'mutation($m: ID!, $u: String!, $t: [String!]!) { addWebhookEndpoint(appModeId: $m, url: $u, topics: $t) { secret endpoint { id } } }';

async function endpoint(path: string, topics = ['contact.created', 'contact.updated']) {
  const { addWebhookEndpoint } = await ok(ADD, { m: app.modes.live, u: `${receiver.origin}/${path}`, t: topics });
  return { id: addWebhookEndpoint.endpoint.id as string, secret: addWebhookEndpoint.secret as string };
}

const postsTo = (path: string) => receiver.received.filter((r) => r.path === `/${path}`);

/** Runs due process steps until nothing more is due now. */
async function settle() {
  for (let i = 0; i < 5; i++) await t.engine.runDue();
}

describe.each(ENGINES)('on the $engine engine', ({ engine, skip }) => {
  describe.skipIf(skip)('', () => {
    beforeAll(async () => {
      cert = await makeTestCertificate();
      receiver = await startReceiver(cert, { handler: (_req, res) => res.writeHead(answer).end('{"ok":true}') });
      smtp = await smtpServer();
      t = await startTestServer({
        engine,
        config: testConfig({ outboundTestTrust: { allow: [receiver.hostPort], ca: cert.cert }, smtpUrl: smtp.url }),
      });
      app = await staffApp(t);
    });
    afterAll(async () => {
      await t?.close();
      await receiver?.close();
      await smtp?.close();
    });

    describe('a post', () => {
      it('carries the event, signed so that Stripe’s library and a hand-written constant-time check both accept it', async () => {
        const hook = await endpoint('signed');
        const api = serverApi(t, app.live.server_key);
        await api.identify('ada', { display_name: 'Ada', email: 'Ada@Example.com', language: 'en' });
        await settle();
        const [post] = postsTo('signed');
        expect(post).toBeDefined();
        expect(post!.headers['content-type']).toBe('application/json');
        expect(post!.headers['x-crm-delivery']).toMatch(/^dlv_[0-9a-f]{24}$/);
        const body = JSON.parse(post!.body);
        expect(body).toEqual({
          id: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
          type: 'contact.created',
          created_at: expect.any(String),
          app_id: app.appId,
          data: {},
          contact: { external_id: 'ada', display_name: 'Ada', email: 'ada@example.com', language: 'en' },
        });

        const signature = String(post!.headers['x-crm-signature']);
        const event = new Stripe('sk_test_unused').webhooks.constructEvent(post!.body, signature, hook.secret);
        expect(event.id).toBe(body.id);
        const [, t0, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature)!;
        const expected = createHmac('sha256', hook.secret).update(`${t0}.${post!.body}`).digest();
        expect(timingSafeEqual(Buffer.from(v1!, 'hex'), expected)).toBe(true);
        expect(Math.abs(Number(t0) - t.clock.now().getTime() / 1000)).toBeLessThan(300);
      });

      it('goes once to each endpoint that asks for the topic, and to none that does not or is off', async () => {
        await endpoint('first');
        await endpoint('second');
        await endpoint('other-topic', ['contact.unsubscribed']);
        const off = await endpoint('off');
        await ok('mutation($id: ID!) { switchWebhookEndpoint(id: $id, on: false) { id } }', { id: off.id });
        await serverApi(t, app.live.server_key).identify('grace', { display_name: 'Grace' });
        await settle();
        await settle();
        expect(postsTo('first').filter((p) => JSON.parse(p.body).contact.external_id === 'grace')).toHaveLength(1);
        expect(postsTo('second').filter((p) => JSON.parse(p.body).contact.external_id === 'grace')).toHaveLength(1);
        expect(postsTo('other-topic')).toHaveLength(0);
        expect(postsTo('off')).toHaveLength(0);
      });

      // The embedded engine's slots are shared by the run's row; on Temporal, the activity's endpoint
      // slots are (test/engine-temporal.test.ts).
      it.runIf(engine === 'embedded')('is a run of its app-mode and its endpoint, which the engine shares its slots by', async () => {
        const hook = await endpoint('fair');
        await serverApi(t, app.live.server_key).identify('fair-share', { display_name: 'Fair Share' });
        await settle();
        await settle();
        const deliveries = await t.svc.db.webhookDelivery.findMany({ where: { endpointId: hook.id } });
        expect(deliveries).toHaveLength(1);
        const runs = await t.svc.db.workflowRun.findMany({ where: { id: { in: deliveries.map((d) => d.id) } } });
        expect(runs.map((r) => [r.process, r.fairKey, r.lane])).toEqual([['webhook', app.modes.live, hook.id]]);
      });
    });

    describe('a failed post', () => {
      it('is tried 10 times on the schedule with the same X-CRM-Delivery, each signed afresh, then given up; the log keeps each try', async () => {
        const hook = await endpoint('failing', ['contact.updated']);
        answer = 503;
        try {
          await serverApi(t, app.live.server_key).identify('ada', { display_name: 'Ada Lovelace' });
          await settle();
          for (let i = 0; i < MAX_TRIES - 1; i++) {
            t.clock.advance(RETRY_WAITS_MS[i]!);
            await settle();
          }
          t.clock.advance(3_600_000);
          await settle();
        } finally {
          answer = 200;
        }
        const posts = postsTo('failing');
        expect(posts).toHaveLength(MAX_TRIES);
        expect(new Set(posts.map((p) => p.headers['x-crm-delivery'])).size).toBe(1);
        expect(new Set(posts.map((p) => p.headers['x-crm-signature'])).size).toBe(MAX_TRIES);
        const { webhookEndpoints } = await ok(
          'query($m: ID!) { webhookEndpoints(appModeId: $m) { edges { node { id failures tries { edges { node { attempt delivered statusCode } } } } } } }',
          { m: app.modes.live },
        );
        const node = webhookEndpoints.edges.map((e: { node: { id: string } }) => e.node).find((n: { id: string }) => n.id === hook.id);
        expect(node.failures).toBe(MAX_TRIES);
        const tries = node.tries.edges.map((e: { node: unknown }) => e.node);
        expect(tries.map((x: { attempt: number }) => x.attempt)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
        expect(tries.every((x: { statusCode: number; delivered: boolean }) => x.statusCode === 503 && !x.delivered)).toBe(true);
      });

      it('is not tried again after a 4xx other than 408, 425 and 429, nor after a redirect', async () => {
        for (const status of [400, 410, 302]) {
          const path = `final-${status}`;
          await endpoint(path, ['contact.updated']);
          answer = status;
          try {
            await serverApi(t, app.live.server_key).identify('ada', { display_name: `Ada ${status}` });
            await settle();
            t.clock.advance(3_600_000);
            await settle();
          } finally {
            answer = 200;
          }
          await ok('mutation($id: ID!, $on: Boolean!) { switchWebhookEndpoint(id: $id, on: $on) { id } }', {
            id: (await t.svc.db.webhookEndpoint.findFirstOrThrow({ where: { url: `${receiver.origin}/${path}` } })).id,
            on: false,
          });
          expect(postsTo(path), `answered ${status}`).toHaveLength(1);
        }
      });
    });

    describe('an endpoint failing for a day', () => {
      it('is switched off once every post has failed for 24 hours, at least 5 of them, and its owners are mailed once', async () => {
        const own = await staffApp(t);
        const { addWebhookEndpoint } = await ok(
          ADD,
          { m: own.modes.live, u: `${receiver.origin}/dying`, t: ['contact.updated'] },
          own.owner,
        );
        const id = addWebhookEndpoint.endpoint.id as string;
        const api = serverApi(t, own.live.server_key);
        await api.identify('ada', {});
        answer = 503;
        try {
          await api.identify('ada', { display_name: 'One' });
          await settle();
          for (const wait of RETRY_WAITS_MS) {
            t.clock.advance(wait);
            await settle();
          }
          expect(await t.svc.db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).toMatchObject({ enabled: true, failures: MAX_TRIES });
          // A day after the first failure, the next failed post switches it off.
          t.clock.advance(24 * 3_600_000);
          await api.identify('ada', { display_name: 'Two' });
          await settle();
          await settle();
        } finally {
          answer = 200;
        }
        const row = await t.svc.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
        expect(row).toMatchObject({ enabled: false, switchedOffAt: expect.any(Date) });
        const mails = smtp.received.filter((m) => m.mail.subject?.startsWith('Webhook endpoint switched off'));
        expect(mails).toHaveLength(1);
        expect(mails[0]!.envelope.to).toEqual([own.ownerEmail]);
        expect(mails[0]!.mail.text).toContain(`${receiver.origin}/dying`);
        // Nothing more goes to it; switching it on starts the count afresh.
        const before = postsTo('dying').length;
        await api.identify('ada', { display_name: 'Three' });
        await settle();
        expect(postsTo('dying')).toHaveLength(before);
        const on = await ok('mutation($id: ID!) { switchWebhookEndpoint(id: $id, on: true) { enabled failures } }', { id }, own.owner);
        expect(on.switchWebhookEndpoint).toEqual({ enabled: true, failures: 0 });
      });
    });

    describe('send test', () => {
      it('posts a ping at once and answers its try', async () => {
        const hook = await endpoint('ping', ['contact.created']);
        const { sendWebhookTest } = await ok('mutation($id: ID!) { sendWebhookTest(id: $id) { topic delivered statusCode durationMs } }', {
          id: hook.id,
        });
        expect(sendWebhookTest).toMatchObject({ topic: 'webhook.test', delivered: true, statusCode: 200 });
        const [post] = postsTo('ping');
        expect(JSON.parse(post!.body)).toMatchObject({ type: 'webhook.test', data: { endpoint_id: hook.id }, contact: null });
      });
    });

    describe('the log', () => {
      it('keeps the last 50 tries of an endpoint, newest first', async () => {
        const hook = await endpoint('log-50', ['contact.created']);
        const sent: string[] = [];
        for (let i = 0; i < LOG_TRIES + 5; i++) {
          t.clock.advance(1000);
          sent.push(
            (await ok('mutation($id: ID!) { sendWebhookTest(id: $id) { deliveryId } }', { id: hook.id })).sendWebhookTest.deliveryId,
          );
        }
        const { webhookEndpoints } = await ok(
          'query($m: ID!) { webhookEndpoints(appModeId: $m, first: 20) { edges { node { id tries(first: 60) { edges { node { deliveryId } } } } } } }',
          { m: app.modes.live },
        );
        const node = webhookEndpoints.edges.map((e: { node: { id: string } }) => e.node).find((n: { id: string }) => n.id === hook.id);
        expect(node.tries.edges.map((e: { node: { deliveryId: string } }) => e.node.deliveryId)).toEqual(sent.slice(-LOG_TRIES).reverse());
        expect(await t.svc.db.webhookTry.count({ where: { endpointId: hook.id } })).toBe(LOG_TRIES);
      });

      it('holds exactly the last 50 tries when 80 are sent at once, and answers each its try', async () => {
        const hook = await endpoint('log-80', ['contact.created']);
        const answers = await Promise.all(
          Array.from({ length: 80 }, () => ok('mutation($id: ID!) { sendWebhookTest(id: $id) { deliveryId delivered } }', { id: hook.id })),
        );
        expect(answers.filter((a) => a.sendWebhookTest.delivered)).toHaveLength(80);
        expect(await t.svc.db.webhookTry.count({ where: { endpointId: hook.id } })).toBe(LOG_TRIES);
      });
    });

    describe('a new secret', () => {
      it('stops the old one at once: a try after the renewal, of a post made before it, is signed with the new one only', async () => {
        const hook = await endpoint('renewed');
        const stripe = new Stripe('sk_test_unused');
        const verifies = (post: { body: string; headers: Record<string, unknown> }, secret: string) => {
          try {
            stripe.webhooks.constructEvent(post.body, String(post.headers['x-crm-signature']), secret);
            return true;
          } catch {
            return false;
          }
        };
        answer = 503;
        try {
          await serverApi(t, app.live.server_key).identify('renewed', { display_name: 'Ada Renewed' });
          await settle();
        } finally {
          answer = 200;
        }
        const renewed = (await ok('mutation($id: ID!) { renewWebhookSecret(id: $id) { secret } }', { id: hook.id })).renewWebhookSecret
          .secret as string;
        t.clock.advance(RETRY_WAITS_MS[0]!);
        await settle();
        const [before, after] = postsTo('renewed');
        expect(after!.headers['x-crm-delivery']).toBe(before!.headers['x-crm-delivery']);
        expect([verifies(before!, hook.secret), verifies(before!, renewed)]).toEqual([true, false]);
        expect([verifies(after!, hook.secret), verifies(after!, renewed)]).toEqual([false, true]);
      });
    });

    describe('private targets', () => {
      it('are refused before any connection, whatever an endpoint says: loopback, private, link-local metadata, IPv6 loopback', async () => {
        const stranger = await startReceiver(cert); // listening, but named by no test trust
        try {
          for (const url of [
            `https://127.0.0.1:${stranger.port}/x`,
            `https://localhost:${stranger.port}/x`,
            `https://[::ffff:127.0.0.1]:${stranger.port}/x`,
            'https://10.1.2.3/x',
            'https://169.254.169.254/latest/meta-data',
            'https://[::1]/x',
          ]) {
            const { addWebhookEndpoint } = await ok(ADD, { m: app.modes.live, u: url, t: ['contact.created'] });
            const { sendWebhookTest } = await ok('mutation($id: ID!) { sendWebhookTest(id: $id) { delivered statusCode failure } }', {
              id: addWebhookEndpoint.endpoint.id,
            });
            expect(sendWebhookTest, url).toEqual({ delivered: false, statusCode: null, failure: 'refused_address' });
            await ok('mutation($id: ID!) { removeWebhookEndpoint(id: $id) }', { id: addWebhookEndpoint.endpoint.id });
          }
          expect(stranger.connections()).toBe(0);
        } finally {
          await stranger.close();
        }
      });
    });

    describe('a delivered post', () => {
      it('ends the run of failures: the count starts afresh', async () => {
        const own = await staffApp(t);
        const { addWebhookEndpoint } = await ok(
          ADD,
          { m: own.modes.live, u: `${receiver.origin}/recovering`, t: ['contact.created', 'contact.updated'] },
          own.owner,
        );
        const id = addWebhookEndpoint.endpoint.id as string;
        answer = 503;
        try {
          await serverApi(t, own.live.server_key).identify('ada', { display_name: 'Ada' });
          await settle();
          t.clock.advance(RETRY_WAITS_MS[0]!);
          await settle();
        } finally {
          answer = 200;
        }
        expect(await t.svc.db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).toMatchObject({
          failures: 2,
          failingSince: expect.any(Date),
        });
        t.clock.advance(RETRY_WAITS_MS[1]!);
        await settle();
        expect(await t.svc.db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).toMatchObject({
          enabled: true,
          failures: 0,
          failingSince: null,
        });
      });
    });

    describe('events of several app-modes handed on together', () => {
      it('each go to their own mode’s endpoints, with their own contact', async () => {
        const own = await staffApp(t);
        const hooks = { live: 'modes-live', test: 'modes-test' } as const;
        for (const mode of ['live', 'test'] as const)
          await ok(ADD, { m: own.modes[mode], u: `${receiver.origin}/${hooks[mode]}`, t: ['contact.created'] }, own.owner);
        // Both committed before the outbox is read: one batch of rows.
        await serverApi(t, own.live.server_key).identify('same-id', { display_name: 'Live person', email: 'live@example.com' });
        await serverApi(t, own.test.server_key).identify('same-id', { display_name: 'Test person' });
        await settle();
        const [live] = postsTo(hooks.live);
        const [test] = postsTo(hooks.test);
        expect(postsTo(hooks.live)).toHaveLength(1);
        expect(postsTo(hooks.test)).toHaveLength(1);
        expect(JSON.parse(live!.body).contact).toEqual({
          external_id: 'same-id',
          display_name: 'Live person',
          email: 'live@example.com',
          language: null,
        });
        expect(JSON.parse(test!.body).contact).toEqual({
          external_id: 'same-id',
          display_name: 'Test person',
          email: null,
          language: null,
        });
        expect(JSON.parse(live!.body).id).not.toBe(JSON.parse(test!.body).id);
      });
    });

    describe('a topic about something other than the contact', () => {
      it('carries the ids of what happened and only the person’s external id', async () => {
        const own = await staffApp(t);
        await ok(ADD, { m: own.modes.live, u: `${receiver.origin}/rated`, t: ['conversation.rated'] }, own.owner);
        await transaction(t.ctx, (tx) =>
          emit(tx, 'conversation.rated', {
            appModeId: own.modes.live,
            externalId: 'rater',
            data: { conversation_id: 'c-1', part_id: 'p-1', rating: 5 },
          }),
        );
        await settle();
        const [post] = postsTo('rated');
        expect(JSON.parse(post!.body)).toEqual({
          id: expect.stringMatching(/^evt_/),
          type: 'conversation.rated',
          created_at: expect.any(String),
          app_id: own.appId,
          data: { conversation_id: 'c-1', part_id: 'p-1', rating: 5 },
          contact: { external_id: 'rater' },
        });
      });
    });
  });
});
