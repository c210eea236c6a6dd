import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverApi, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi, staffSocket } from './support/graphql.js';
import { settle, workflowsIn } from './support/workflows.js';
import { makeTestCertificate, startReceiver, type Receiver } from './support/https-receiver.js';
import { ENGINES, sayIfTemporalSkipped, startTestServer, testConfig, type TestServer } from './support/server.js';
import { call } from './support/http.js';

// Workflow runs, black-box, on both engines: a published workflow's trigger event (sent to the
// server API) starts one run per person, de-duplicated; the run waits on a durable timer (the
// test's clock), branches on the person's attributes, posts a webhook signed with the app's own
// secret to a real receiver (a 429 with Retry-After first, the same X-CRM-Delivery on the next
// try), sets an attribute and a tag, waits for an event with both ways out, and ends; the goal
// event ends a waiting run; every step's outcome and reason are read back through the staff API
// ("why"), and in the export; an erase cancels the person's runs and removes them.

sayIfTemporalSkipped('test/workflow-runs.test.ts');

let t: TestServer;
let app: StaffApp;
let api: ReturnType<typeof staffApi>;
const { runsOf, workflow } = workflowsIn(
  () => api,
  () => app.modes.live,
);
let receiver: Receiver;
let secret: string;
/** What the receiver answers next (a status and headers), else 200. */
const answers: { status: number; headers?: Record<string, string> }[] = [];

async function events(...list: [externalId: string, name: string, id?: string][]) {
  const sent = await serverApi(t, app.live.server_key).sendEvents(
    list.map(([external_id, name, id]) => ({ id: id ?? unique('ev'), external_id, name, at: t.clock.now().toISOString() })),
  );
  expect(sent.rejected).toEqual([]);
}

describe.each(ENGINES)('workflow runs on the $engine engine', ({ engine, skip }) => {
  describe.skipIf(skip)('', () => {
    beforeAll(async () => {
      const cert = await makeTestCertificate();
      receiver = await startReceiver(cert, {
        handler: (_req, res) => {
          const next = answers.shift() ?? { status: 200 };
          res.writeHead(next.status, next.headers).end();
        },
      });
      t = await startTestServer({
        engine,
        config: testConfig({ outboundTestTrust: { allow: [receiver.hostPort], ca: cert.cert }, webhookTestRetryWaitMs: 1000 }),
      });
      app = await staffApp(t, 'Orchard');
      api = staffApi(
        () => t.url,
        () => app.owner,
      );
      secret = (await api.ok('mutation($m: ID!) { renewAppWebhookSecret(appModeId: $m) { secret } }', { m: app.modes.live }))
        .renewAppWebhookSecret.secret;
    });
    afterAll(async () => {
      await t?.close();
      await receiver?.close();
    });

    it('walks each step kind, records why each went as it did, and posts a webhook signed with the app’s secret, honouring Retry-After', async () => {
      const server = serverApi(t, app.live.server_key);
      const [pro, free] = [unique('pro'), unique('free')];
      await server.identify(pro, { attributes: { plan: 'pro' } });
      await server.identify(free, { attributes: { plan: 'free' } });
      const id = await workflow('Welcome', {
        trigger: { kind: 'event', event: 'signed_up' },
        steps: [
          { key: 'pause', kind: 'wait', seconds: 60, next: 'is_pro' },
          { key: 'is_pro', kind: 'branch', condition: { attribute: 'plan', op: 'is', value: 'pro' }, yes: 'tell', no: 'plain' },
          { key: 'tell', kind: 'webhook', url: `${receiver.origin}/welcome`, next: 'mark' },
          { key: 'mark', kind: 'set_attribute', attribute: 'welcomed', value: true, next: 'label' },
          { key: 'label', kind: 'tag', action: 'add', tag: 'vip', next: 'opened' },
          { key: 'opened', kind: 'wait_for_event', event: 'opened_app', timeoutSeconds: 3600, next: 'happy', timeout: 'quiet' },
          { key: 'happy', kind: 'end', outcome: 'engaged' },
          { key: 'quiet', kind: 'end', outcome: 'quiet' },
          { key: 'plain', kind: 'tag', action: 'remove', tag: 'vip', next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      // The trigger sent twice (the same event id) and once more (another id): once-only entry starts one run each.
      await events([pro, 'signed_up', 'e-pro'], [pro, 'signed_up', 'e-pro'], [free, 'signed_up']);
      await settle(t);
      const [waiting] = await runsOf(pro, id);
      expect(await runsOf(pro, id)).toHaveLength(1);
      expect(waiting).toMatchObject({ state: 'waiting', step: 'pause', versionNumber: 1 });
      expect(new Date(waiting!.until!).getTime()).toBe(t.clock.now().getTime() + 60_000);

      // The receiver asks for a pause of 2 s first: the next try comes no sooner, with the same delivery id and body.
      answers.push({ status: 429, headers: { 'Retry-After': '2' } });
      t.clock.advance(61_000);
      await settle(t);
      expect(receiver.received.filter((r) => r.path === '/welcome')).toHaveLength(1);
      t.clock.advance(1_500);
      await settle(t);
      expect(receiver.received.filter((r) => r.path === '/welcome')).toHaveLength(1);
      t.clock.advance(1_000);
      await settle(t);
      const posts = receiver.received.filter((r) => r.path === '/welcome');
      expect(posts).toHaveLength(2);
      expect(posts[1]!.headers['x-crm-delivery']).toBe(posts[0]!.headers['x-crm-delivery']);
      expect(posts[1]!.body).toBe(posts[0]!.body);
      const [, ts, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(posts[1]!.headers['x-crm-signature']))!;
      expect(v1).toBe(createHmac('sha256', secret).update(`${ts}.${posts[1]!.body}`).digest('hex'));
      expect(JSON.parse(posts[1]!.body)).toMatchObject({
        type: 'workflow.step',
        contact: { external_id: pro },
        data: { workflow_id: id, step: 'tell' },
      });

      const [atWait] = await runsOf(pro, id);
      expect(atWait).toMatchObject({ state: 'waiting', step: 'opened', waitsFor: 'opened_app' });
      expect(atWait!.steps.map((s) => [s.step, s.outcome, s.reason])).toEqual([
        ['pause', 'waited', null],
        ['is_pro', 'yes', null],
        ['tell', 'sent', null],
        ['mark', 'passed', null],
        ['label', 'passed', null],
        ['opened', null, null],
      ]);
      const contact = await t.svc.db.contact.findUniqueOrThrow({
        where: { appModeId_externalId: { appModeId: app.modes.live, externalId: pro } },
      });
      expect(contact.attributes).toMatchObject({ plan: 'pro', welcomed: true });
      expect(contact.tags).toEqual(['vip']);

      // The awaited event takes the run on by its `next` way.
      await events([pro, 'opened_app']);
      await settle(t);
      const [ended] = await runsOf(pro, id);
      expect(ended).toMatchObject({ state: 'ended', outcome: 'engaged', step: 'happy' });
      expect(ended!.steps.find((s) => s.step === 'opened')!.outcome).toBe('event');

      // The statistics per step count both people: each step's visits, runs waiting there now, and how the visits went.
      const { workflow: stats } = await api.ok(
        'query($id: ID!) { workflow(id: $id) { statistics { step entered waiting outcomes { outcome count } } } }',
        { id },
      );
      const byStep = Object.fromEntries(
        stats.statistics.map((s: { step: string; entered: number; waiting: number; outcomes: { outcome: string; count: number }[] }) => [
          s.step,
          { entered: s.entered, waiting: s.waiting, ...Object.fromEntries(s.outcomes.map((o) => [o.outcome, o.count])) },
        ]),
      );
      expect(byStep).toMatchObject({
        pause: { entered: 2, waiting: 0, waited: 2 },
        is_pro: { entered: 2, yes: 1, no: 1 },
        tell: { entered: 1, sent: 1 },
        opened: { entered: 1, waiting: 0, event: 1 },
        happy: { 'end:engaged': 1 },
        plain: { entered: 1, skipped: 1 },
        done: { 'end:done': 1 },
        quiet: { entered: 0, waiting: 0 },
      });

      // The other person went the `no` way: their tag to remove was not there, skipped and said why.
      const [plain] = await runsOf(free, id);
      expect(plain).toMatchObject({ state: 'ended', outcome: 'done' });
      expect(plain!.steps.map((s) => [s.step, s.outcome, s.reason])).toEqual([
        ['pause', 'waited', null],
        ['is_pro', 'no', null],
        ['plain', 'skipped', 'unchanged'],
      ]);
    });

    it('waits until a time of day on the person’s own clock', async () => {
      const p = unique('tokyo');
      await serverApi(t, app.live.server_key).identify(p, { time_zone: 'Asia/Tokyo' });
      const id = await workflow('Morning', {
        trigger: { kind: 'event', event: 'slept' },
        steps: [
          { key: 'morning', kind: 'wait_until', time: '09:00', next: 'done' },
          { key: 'done', kind: 'end', outcome: 'woke' },
        ],
      });
      await events([p, 'slept']);
      await settle(t);
      // 09:00 in Tokyo (UTC+9, no summer time) is 00:00 UTC: the next midnight UTC.
      const now = t.clock.now();
      const nine = new Date(now);
      nine.setUTCHours(24, 0, 0, 0);
      const [waiting] = await runsOf(p, id);
      expect(waiting).toMatchObject({ state: 'waiting', step: 'morning' });
      expect(new Date(waiting!.until!).toISOString()).toBe(nine.toISOString());
      t.clock.advance(nine.getTime() - now.getTime() - 1000);
      await settle(t);
      expect((await runsOf(p, id))[0]).toMatchObject({ state: 'waiting', step: 'morning' });
      t.clock.advance(2000);
      await settle(t);
      const [ended] = await runsOf(p, id);
      expect(ended).toMatchObject({ state: 'ended', outcome: 'woke' });
      expect(ended!.steps.map((s) => [s.step, s.outcome])).toEqual([['morning', 'waited']]);
    });

    it('takes the timeout way when the event does not come, and ends a waiting run on the goal event', async () => {
      const [late, goal] = [unique('late'), unique('goal')];
      for (const p of [late, goal]) await serverApi(t, app.live.server_key).identify(p);
      const id = await workflow('Nudge', {
        trigger: { kind: 'event', event: 'trial_started' },
        exit: { goalEvent: 'upgraded' },
        steps: [
          { key: 'listen', kind: 'wait_for_event', event: 'invited_team', timeoutSeconds: 600, next: 'thanks', timeout: 'nudge' },
          { key: 'thanks', kind: 'end', outcome: 'invited' },
          { key: 'nudge', kind: 'end', outcome: 'nudged' },
        ],
      });
      // Followed live over graphql-ws: the statistics now, then again as they change.
      const client = staffSocket(t.url, app.owner);
      const seen: { step: string; waiting: number }[][] = [];
      const stop = client.subscribe<{ workflowStatisticsChanged: { step: string; waiting: number }[] }>(
        { query: 'subscription($w: ID!) { workflowStatisticsChanged(workflowId: $w) { step waiting } }', variables: { w: id } },
        { next: ({ data }) => data && seen.push(data.workflowStatisticsChanged), error: () => {}, complete: () => {} },
      );
      await expect.poll(() => seen.length).toBe(1);
      expect(seen[0]!.find((s) => s.step === 'listen')!.waiting).toBe(0);
      await events([late, 'trial_started'], [goal, 'trial_started']);
      await settle(t);
      await expect.poll(() => seen.at(-1)!.find((s) => s.step === 'listen')!.waiting).toBe(2);
      stop();
      await client.dispose();
      await events([goal, 'upgraded']);
      await settle(t);
      expect((await runsOf(goal, id))[0]).toMatchObject({ state: 'ended', outcome: 'goal', step: 'listen' });
      expect((await runsOf(late, id))[0]).toMatchObject({ state: 'waiting', step: 'listen' });
      t.clock.advance(601_000);
      await settle(t);
      const [timedOut] = await runsOf(late, id);
      expect(timedOut).toMatchObject({ state: 'ended', outcome: 'nudged', step: 'nudge' });
      expect(timedOut!.steps[0]).toMatchObject({ step: 'listen', outcome: 'timeout' });
    });

    it('parks a run that waits for an event alone, and the event takes it on', async () => {
      const p = unique('parked');
      await serverApi(t, app.live.server_key).identify(p);
      const id = await workflow('Patient', {
        trigger: { kind: 'event', event: 'asked' },
        steps: [
          { key: 'answer', kind: 'wait_for_event', event: 'answered', next: 'done' },
          { key: 'done', kind: 'end', outcome: 'answered' },
        ],
      });
      await events([p, 'asked']);
      await settle(t);
      expect((await runsOf(p, id))[0]).toMatchObject({ state: 'parked', step: 'answer', waitsFor: 'answered', until: null });
      t.clock.advance(3_600_000);
      await settle(t);
      expect((await runsOf(p, id))[0]).toMatchObject({ state: 'parked', step: 'answer' });
      await events([p, 'answered']);
      await settle(t);
      const [run] = await runsOf(p, id);
      expect(run).toMatchObject({ state: 'ended', outcome: 'answered' });
      expect(run!.steps[0]).toMatchObject({ step: 'answer', outcome: 'event' });
    });

    it('lets a person in again only once the entry rule’s days have passed', async () => {
      const p = unique('again');
      await serverApi(t, app.live.server_key).identify(p);
      const id = await workflow('Weekly', {
        trigger: { kind: 'event', event: 'visited' },
        entry: { againAfterDays: 7 },
        steps: [{ key: 'done', kind: 'end' }],
      });
      await events([p, 'visited']);
      await settle(t);
      await events([p, 'visited']);
      await settle(t);
      expect(await runsOf(p, id)).toHaveLength(1);
      t.clock.advance(7 * 86_400_000 + 1000);
      await events([p, 'visited']);
      await settle(t);
      expect(await runsOf(p, id)).toHaveLength(2);
    });

    it('enters a person once when their trigger comes twenty times at once', async () => {
      const p = unique('burst');
      await serverApi(t, app.live.server_key).identify(p);
      const id = await workflow('Once', {
        trigger: { kind: 'event', event: 'clicked' },
        steps: [
          { key: 'hold', kind: 'wait', seconds: 600, next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      await Promise.all(Array.from({ length: 20 }, () => events([p, 'clicked'])));
      await settle(t);
      expect(await runsOf(p, id)).toHaveLength(1);
      expect(await t.svc.db.workflowEntry.count({ where: { workflowId: id } })).toBe(1);
    });

    it('gives the runs in the export’s workflows, and an erase cancels the person’s runs and removes them', async () => {
      const p = unique('erased');
      await serverApi(t, app.live.server_key).identify(p);
      const id = await workflow('Long wait', {
        trigger: { kind: 'event', event: 'joined' },
        steps: [
          { key: 'month', kind: 'wait', seconds: 30 * 86_400, next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      await events([p, 'joined']);
      await settle(t);
      const [run] = await runsOf(p, id);
      expect(run).toMatchObject({ state: 'waiting', step: 'month' });

      const exported = await call(t.url, 'GET', `/server/v1/contacts/${p}/export`, {
        headers: { Authorization: `Bearer ${app.live.server_key}` },
      });
      expect(exported.status).toBe(200);
      expect(exported.json.workflows).toEqual([
        expect.objectContaining({
          workflow: 'Long wait',
          state: 'waiting',
          outcome: null,
          endedAt: null,
          startedAt: expect.any(String),
          step: 'month',
        }),
      ]);

      const erased = await call(t.url, 'DELETE', `/server/v1/contacts/${p}`, {
        headers: { Authorization: `Bearer ${app.live.server_key}` },
      });
      expect(erased.status).toBeLessThan(300);
      await settle(t);
      await expect.poll(async () => (await t.engine.describe(run!.id))?.state).toBe('ended');
      expect(await t.svc.db.personRun.count({ where: { id: run!.id } })).toBe(0);
    });
  });
});
