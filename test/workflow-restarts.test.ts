import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverApi, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { makeTestCertificate, startReceiver, type Receiver } from './support/https-receiver.js';
import { ENGINES, sayIfTemporalSkipped, startTestServer, takeOver, testConfig, type TestServer } from './support/server.js';

// A workflow's run survives a restart of the service in every state it can be in, on both engines:
// each run is brought to its state on one server, that server stopped (or killed, for a run in the
// middle of a step), and another server on the same database (on Temporal: the same namespace and
// task queue, its worker replaying the run's history) takes the run on from exactly where it was.
// Waiting on a timer, it goes on when the timer is due, the wait not begun again; parked, the event
// after the restart takes it on; waiting for an event with a timeout, the event takes the `event`
// way; between a webhook's tries, the next try keeps the X-CRM-Delivery; killed while a webhook
// step's post is in flight, the step is made again and recorded once, under one delivery id; ended,
// it stays ended and nothing is made again. What is asserted is what staff read ("why": the person's
// runs and their steps, the statistics) and what the receiver saw.

sayIfTemporalSkipped('test/workflow-restarts.test.ts');

const RUNS = `query($m: ID!, $x: String, $w: ID) { personWorkflowRuns(appModeId: $m, externalId: $x, workflowId: $w) {
  edges { node { id state step waitsFor until outcome endedAt steps { step visit outcome leftAt } } } } }`;

type Run = {
  id: string;
  state: string;
  step: string;
  waitsFor: string | null;
  until: string | null;
  outcome: string | null;
  endedAt: string | null;
  steps: { step: string; visit: number; outcome: string | null; leftAt: string | null }[];
};

/** The short lease of the crash tests: a killed server's activity is taken up once the clock has passed it. */
const LEASE_MS = 2_000;

describe.each(ENGINES)('a run across restarts on the $engine engine', ({ engine, skip }) => {
  describe.skipIf(skip)('', () => {
    let t: TestServer;
    const servers: TestServer[] = [];
    let app: StaffApp;
    let api: ReturnType<typeof staffApi>;
    let receiver: Receiver;
    let config: ReturnType<typeof testConfig>;
    /** `/tries/…` is refused once per delivery (503); `/held/…` is held the first time, until released. */
    const refused = new Set<string>();
    const held: ServerResponse[] = [];

    beforeAll(async () => {
      const cert = await makeTestCertificate();
      receiver = await startReceiver(cert, {
        handler: (req, res) => {
          const delivery = String(req.headers['x-crm-delivery']);
          if (req.path.startsWith('/held/') && !receiver.received.some((r) => r !== req && r.path === req.path)) {
            held.push(res);
            return;
          }
          if (req.path.startsWith('/tries/') && !refused.has(delivery)) {
            refused.add(delivery);
            res.writeHead(503).end();
            return;
          }
          res.writeHead(200).end();
        },
      });
      config = testConfig({
        outboundTestTrust: { allow: [receiver.hostPort], ca: cert.cert },
        webhookTestRetryWaitMs: 1000,
        embeddedEngineLeaseMs: LEASE_MS,
      });
      t = await startTestServer({ engine, config });
      servers.push(t);
      app = await staffApp(t, 'Restarts');
      api = staffApi(
        () => t.url,
        () => app.owner,
      );
      await api.ok('mutation($m: ID!) { renewAppWebhookSecret(appModeId: $m) { secret } }', { m: app.modes.live });
    });
    afterAll(async () => {
      for (const res of held) res.destroy();
      for (const s of servers) await s.close().catch(() => {});
      await receiver?.close();
    });

    /** Stops the server (or kills it) and starts another on the same database, clock and task queue. */
    async function restart(how: 'stop' | 'kill' = 'stop', opts: { heartbeats?: boolean } = {}) {
      const from = t;
      await (how === 'kill' ? from.kill() : from.close());
      t = await startTestServer({ ...takeOver(from), config, ...opts });
      servers.push(t);
    }

    async function runOf(externalId: string, workflowId: string): Promise<Run> {
      const { edges } = (await api.ok(RUNS, { m: app.modes.live, x: externalId, w: workflowId })).personWorkflowRuns;
      expect(edges).toHaveLength(1);
      return edges[0].node;
    }
    const visits = (run: Run) => run.steps.map((s) => [s.step, s.visit, s.outcome]);

    /** Runs due process steps until nothing more is due now. */
    async function settle() {
      for (let i = 0; i < 10 && (await t.engine.runDue()) > 0; i++);
    }

    async function workflow(name: string, definition: unknown): Promise<string> {
      const made = await api.ok('mutation($m: ID!, $i: WorkflowInput!) { createWorkflow(appModeId: $m, input: $i) { id } }', {
        m: app.modes.live,
        i: { name, definition },
      });
      const id = made.createWorkflow.id as string;
      await api.ok('mutation($id: ID!) { publishWorkflow(id: $id) { liveVersion } }', { id });
      return id;
    }

    /** A new person, and the event that starts their run. */
    async function person(label: string, trigger: string): Promise<string> {
      const p = unique(label);
      const server = serverApi(t, app.live.server_key);
      await server.identify(p);
      await event(p, trigger);
      return p;
    }

    async function event(externalId: string, name: string) {
      const sent = await serverApi(t, app.live.server_key).sendEvents([
        { id: unique('ev'), external_id: externalId, name, at: t.clock.now().toISOString() },
      ]);
      expect(sent.rejected).toEqual([]);
    }

    const posts = (path: string) => receiver.received.filter((r) => r.path === path);

    it('resumes exactly where it waited: its timer, then a webhook’s next try under the same delivery id', async () => {
      const id = await workflow('Survivor', {
        trigger: { kind: 'event', event: 'joined' },
        steps: [
          { key: 'pause', kind: 'wait', seconds: 3600, next: 'tell' },
          { key: 'tell', kind: 'webhook', url: `${receiver.origin}/tries/${engine}`, next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      const p = await person('timer', 'joined');
      await settle();
      const waiting = await runOf(p, id);
      expect(waiting).toMatchObject({ state: 'waiting', step: 'pause' });

      // Stopped while waiting; another server takes the run up when its timer is due, not before.
      await restart();
      t.clock.advance(3_599_000);
      await settle();
      expect(await runOf(p, id)).toEqual(waiting);
      t.clock.advance(2_000);
      await settle();
      const tries = () => posts(`/tries/${engine}`);
      expect(tries()).toHaveLength(1);
      expect(await runOf(p, id)).toMatchObject({ state: 'active', step: 'tell' });

      // Stopped between a webhook's tries; the next server makes the second try, with the first's delivery id.
      await restart();
      t.clock.advance(1_000);
      await settle();
      expect(tries()).toHaveLength(2);
      expect(tries()[1]!.headers['x-crm-delivery']).toBe(tries()[0]!.headers['x-crm-delivery']);
      expect(tries()[1]!.body).toBe(tries()[0]!.body);
      const run = await runOf(p, id);
      expect(run).toMatchObject({ state: 'ended', outcome: 'done' });
      // Each step was taken once: the wait was not begun again, the post not recorded twice.
      expect(visits(run)).toEqual([
        ['pause', 1, 'waited'],
        ['tell', 1, 'sent'],
      ]);
    });

    it('keeps a parked run parked across a restart, and the event after it takes the run on', async () => {
      const id = await workflow('Parked', {
        trigger: { kind: 'event', event: 'asked' },
        steps: [
          { key: 'answer', kind: 'wait_for_event', event: 'answered', next: 'done' },
          { key: 'done', kind: 'end', outcome: 'answered' },
        ],
      });
      const p = await person('parked', 'asked');
      await settle();
      const parked = await runOf(p, id);
      expect(parked).toMatchObject({ state: 'parked', step: 'answer', waitsFor: 'answered', until: null });

      await restart();
      t.clock.advance(86_400_000);
      await settle();
      expect(await runOf(p, id)).toEqual(parked);
      await event(p, 'answered');
      await settle();
      const run = await runOf(p, id);
      expect(run).toMatchObject({ state: 'ended', outcome: 'answered', step: 'done' });
      expect(visits(run)).toEqual([['answer', 1, 'event']]);
    });

    it('takes the `event` way for the event that comes after a restart, its timeout not yet due', async () => {
      const id = await workflow('Listening', {
        trigger: { kind: 'event', event: 'invited' },
        steps: [
          { key: 'listen', kind: 'wait_for_event', event: 'accepted', timeoutSeconds: 600, next: 'thanks', timeout: 'nudge' },
          { key: 'thanks', kind: 'end', outcome: 'accepted' },
          { key: 'nudge', kind: 'end', outcome: 'nudged' },
        ],
      });
      const p = await person('listen', 'invited');
      await settle();
      const waiting = await runOf(p, id);
      expect(waiting).toMatchObject({ state: 'waiting', step: 'listen', waitsFor: 'accepted' });
      expect(new Date(waiting.until!).getTime()).toBe(t.clock.now().getTime() + 600_000);

      await restart();
      t.clock.advance(300_000);
      await settle();
      expect(await runOf(p, id)).toEqual(waiting);
      await event(p, 'accepted');
      await settle();
      // The timeout coming due later changes nothing.
      t.clock.advance(600_000);
      await settle();
      const run = await runOf(p, id);
      expect(run).toMatchObject({ state: 'ended', outcome: 'accepted', step: 'thanks' });
      expect(visits(run)).toEqual([['listen', 1, 'event']]);
    });

    it('makes a step killed mid-way again after the restart, recorded once and posted under one delivery id', async () => {
      const path = `/held/${engine}`;
      const id = await workflow('Interrupted', {
        trigger: { kind: 'event', event: 'kicked' },
        steps: [
          { key: 'tell', kind: 'webhook', url: `${receiver.origin}${path}`, next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      // On Temporal a killed worker's activity stops beating: this server's do not beat from the start.
      await restart('stop', { heartbeats: false });
      const p = await person('killed', 'kicked');
      // The server "dies" inside the webhook's activity: its post is held by the receiver, never answered.
      const abandoned = t.engine.runDue().catch(() => 0);
      await expect.poll(() => posts(path).length, { timeout: 20_000 }).toBe(1);
      const active = await runOf(p, id);
      expect(active).toMatchObject({ state: 'active', step: 'tell', steps: [] });
      const killed = t;
      await restart('kill');

      // The embedded engine takes the activity up once its lease has run out (then after a second's
      // pause); Temporal once its heartbeats have stopped for their timeout, on this server's worker.
      t.clock.advance(LEASE_MS);
      await settle();
      t.clock.advance(1_000);
      await settle();
      const run = await runOf(p, id);
      expect(run).toMatchObject({ state: 'ended', outcome: 'done', step: 'done' });
      expect(visits(run)).toEqual([['tell', 1, 'sent']]);
      // Posted again (the first post was never answered), under the same delivery id and body: one delivery.
      expect(posts(path)).toHaveLength(2);
      expect(new Set(posts(path).map((r) => r.headers['x-crm-delivery'])).size).toBe(1);
      expect(posts(path)[1]!.body).toBe(posts(path)[0]!.body);
      const { workflow: stats } = await api.ok(
        'query($id: ID!) { workflow(id: $id) { statistics { step entered outcomes { outcome count } } } }',
        {
          id,
        },
      );
      expect(stats.statistics.find((s: { step: string }) => s.step === 'tell')).toEqual({
        step: 'tell',
        entered: 1,
        outcomes: [{ outcome: 'sent', count: 1 }],
      });

      // The killed server's post is answered at last: nothing of it is saved, the run's record stays as it is.
      held.shift()!.writeHead(200).end();
      await killed.close();
      await abandoned;
      expect(await runOf(p, id)).toEqual(run);
      expect(posts(path)).toHaveLength(2);
    });

    it('leaves an ended run ended, nothing of it made again', async () => {
      const path = `/ended/${engine}`;
      const id = await workflow('Finished', {
        trigger: { kind: 'event', event: 'finished' },
        steps: [
          { key: 'mark', kind: 'tag', action: 'add', tag: 'finished', next: 'tell' },
          { key: 'tell', kind: 'webhook', url: `${receiver.origin}${path}`, next: 'done' },
          { key: 'done', kind: 'end', outcome: 'complete' },
        ],
      });
      const p = await person('ended', 'finished');
      await settle();
      const ended = await runOf(p, id);
      expect(ended).toMatchObject({ state: 'ended', outcome: 'complete', step: 'done' });
      expect(visits(ended)).toEqual([
        ['mark', 1, 'passed'],
        ['tell', 1, 'sent'],
      ]);
      expect(posts(path)).toHaveLength(1);

      await restart();
      t.clock.advance(86_400_000);
      await settle();
      expect(await runOf(p, id)).toEqual(ended);
      expect(posts(path)).toHaveLength(1);
      expect((await t.engine.describe(ended.id))?.state).toBe('ended');
    });
  });
});
