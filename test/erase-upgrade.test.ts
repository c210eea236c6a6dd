import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../src/db/migrations.js';
import { eraseGaveUp, resumeEraseRequests, subjectHash } from '../src/domain/contacts/erasure.js';
import { systemContext } from '../src/domain/context.js';
import { ManualClock } from '../src/lib/clock.js';
import { createEmptyDatabase } from './support/db.js';
import { call } from './support/http.js';
import { seedApp, startTestServer, type TestServer } from './support/server.js';

// An erase asked of the first release that could hold data (its DELETE stored the request, then
// answered 500 when starting the process failed: no run, no outbox row) is carried out after an
// upgrade to this one: the migration marks the person as being erased, the server's sweep asks a
// run for every open request no run carries, and a DELETE that finds such a request asks one too,
// once however many ask at the same time.

/** The last migration of the first release that could hold data (contacts, events, erase requests). */
const FIRST_RELEASE = '20261121050330_workflow_runs';

let t: TestServer | undefined;
afterAll(() => t?.close());

const count = async (url: string, text: string, values: unknown[] = []) => {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query(text, values)).rows;
  } finally {
    await db.end();
  }
};

describe('erase requests of an earlier release', () => {
  it("are carried out after the upgrade: the first release's queued erase runs and the person is gone", async () => {
    const url = await createEmptyDatabase();
    await applyMigrations(url, { through: FIRST_RELEASE });
    const clock = new ManualClock();
    const now = clock.now();
    const [workspace, appId, live, test] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const requestId = randomUUID();
    // As the first release left them: the app, the person in both modes with events, another person, and the queued request.
    await count(
      url,
      `INSERT INTO workspace (id, name) VALUES ($1, 'Old workspace');
       INSERT INTO app (id, workspace_id, name) VALUES ($2, $1, 'Old app');
       INSERT INTO app_mode (id, app_id, mode, app_key, identity_secret_enc, inbound_secret_enc, brand_name)
         VALUES ($3, $2, 'live', 'old_live_key', 'x', 'x', 'Old'), ($4, $2, 'test', 'old_test_key', 'x', 'x', 'Old');
       INSERT INTO contact (id, app_mode_id, external_id, display_name) VALUES
         (gen_random_uuid(), $3, 'gone', 'Gone'), (gen_random_uuid(), $4, 'gone', 'Gone'), (gen_random_uuid(), $3, 'kept', 'Kept');
       INSERT INTO event (app_mode_id, id, external_id, name, occurred_at, source) VALUES
         ($3::uuid, 'e1', 'gone', 'order_paid', $6, 'server'), ($4::uuid, 'e2', 'gone', 'order_paid', $6, 'server'),
         ($3::uuid, 'e3', 'kept', 'order_paid', $6, 'server');
       INSERT INTO erase_request (id, app_id, external_id, requested_at, blocked_until)
         VALUES ($5, $2, 'gone', $6, $6::timestamptz + interval '30 days');`.replace(
        /\$(\d)/g,
        (_, n) => `'${[workspace, appId, live, test, requestId, now.toISOString()][Number(n) - 1]}'`,
      ),
    );
    expect(await count(url, 'SELECT count(*)::int AS n FROM workflow_run')).toEqual([{ n: 0 }]);

    await applyMigrations(url);
    // From the upgrade on, the person is marked as being erased (served to no one).
    expect(
      await count(url, "SELECT count(*)::int AS n FROM contact WHERE external_id = 'gone' AND erase_requested_at IS NOT NULL"),
    ).toEqual([{ n: 2 }]);

    t = await startTestServer({ dbUrl: url, clock });
    const server = t;
    const gone = () => server.svc.db.contact.count({ where: { externalId: 'gone' } });
    for (let i = 0; i < 100 && (await gone()) > 0; i++) {
      await server.engine.runDue();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await gone()).toBe(0);
    expect(await server.svc.db.event.count({ where: { externalId: 'gone' } })).toBe(0);
    expect(await server.svc.db.contact.count({ where: { externalId: 'kept' } })).toBe(1);
    expect(await server.svc.db.event.count({ where: { externalId: 'kept' } })).toBe(1);
    expect(await server.svc.db.eraseRequest.findUniqueOrThrow({ where: { id: requestId } })).toMatchObject({
      state: 'done',
      externalId: null,
      subjectHash: subjectHash(server.svc, appId, 'gone'),
    });
    expect(await server.engine.describe(requestId)).toMatchObject({ state: 'ended', outcome: { erased: true } });
  });

  it('a DELETE finding an open request no run carries asks one run, however many ask at once', async () => {
    const server = t!;
    const app = await seedApp(server.svc);
    const as = { headers: { Authorization: `Bearer ${app.live.server_key}` } };
    expect((await call(server.url, 'PUT', '/server/v1/contacts/stranded', { ...as, json: { display_name: 'S' } })).status).toBe(200);
    // A request stored with no run asked, as an earlier release could leave one.
    const id = randomUUID();
    const now = server.clock.now();
    await server.svc.db.eraseRequest.create({
      data: {
        id,
        appId: app.appId,
        externalId: 'stranded',
        subjectHash: subjectHash(server.svc, app.appId, 'stranded'),
        requestedAt: now,
        blockedUntil: new Date(now.getTime() + 30 * 86_400_000),
      },
    });
    const answers = await Promise.all(Array.from({ length: 50 }, () => call(server.url, 'DELETE', '/server/v1/contacts/stranded', as)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(202));
    // The stored request answered each time: no second one.
    expect(await server.svc.db.eraseRequest.count({ where: { appId: app.appId } })).toBe(1);
    expect(await server.svc.db.outboxEvent.count({ where: { topic: 'erase.requested', data: { path: ['request_id'], equals: id } } })).toBe(
      1,
    );
    await server.engine.runDue();
    expect(await server.svc.db.contact.count({ where: { externalId: 'stranded' } })).toBe(0);
    expect(await server.svc.db.eraseRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'done' });
  });

  it('a request whose run gave up is handed back, and the sweep asks a new run that erases the person', async () => {
    const server = t!;
    const app = await seedApp(server.svc);
    const as = { headers: { Authorization: `Bearer ${app.live.server_key}` } };
    expect((await call(server.url, 'PUT', '/server/v1/contacts/quitter', { ...as, json: { display_name: 'Q' } })).status).toBe(200);
    const asked = await call(server.url, 'DELETE', '/server/v1/contacts/quitter', as);
    expect(asked.status).toBe(202);
    await server.svc.outbox.drain();
    const request = await server.svc.db.eraseRequest.findFirstOrThrow({ where: { appId: app.appId, externalId: 'quitter' } });
    // The first run ends without erasing, as after its rounds of failures, handing the request back as it then does.
    const failed = { erased: false, failed: { activity: 'eraseContactData', error: 'the database is away' } };
    await server.svc.db.workflowRun.update({
      where: { id: request.id },
      data: { status: 'ended', wakeAt: null, endedAt: server.clock.now(), outcome: failed },
    });
    const ctx = systemContext(server.svc, 'test');
    await eraseGaveUp(ctx, request.id);
    expect(await server.svc.db.contact.count({ where: { externalId: 'quitter' } })).toBe(1);

    // The sweep asks a run of its own id, once, and it erases the person.
    expect(await resumeEraseRequests(ctx)).toBe(1);
    expect(await resumeEraseRequests(ctx)).toBe(0);
    await server.svc.outbox.drain();
    await server.engine.runDue();
    const handedBack = await server.svc.db.eraseRequest.findUniqueOrThrow({ where: { id: request.id } });
    expect(handedBack).toMatchObject({ state: 'done', externalId: null });
    expect(await server.svc.db.contact.count({ where: { externalId: 'quitter' } })).toBe(0);
    const runs = await server.svc.db.workflowRun.findMany({ where: { id: { startsWith: request.id } }, orderBy: { startedAt: 'asc' } });
    expect(runs[0]).toMatchObject({ id: request.id, outcome: failed });
    expect(runs.map((r) => r.id)).toEqual([request.id, expect.stringMatching(new RegExp(`^${request.id}\\.[0-9a-z]+$`))]);
    expect(await server.engine.describe(runs[1]!.id)).toMatchObject({ state: 'ended', outcome: { erased: true } });
  });
});
