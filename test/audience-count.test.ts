import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, sql } from '../src/db/sql.js';
import { COUNT_EXAMINED } from '../src/domain/audiences/count.js';
import { memberOf, serverApi, staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/server.js';

// audienceCount on the staff API (over HTTP): the people an audience rule reaches now, by the
// check-in's own test of it (attributes and event counts), conditions only a check-in knows counted
// as met; a bad rule refused naming its member; read by any member of the workspace, no one else;
// and bounded: past COUNT_EXAMINED people it answers "at least", with the app-mode's people beside.

const COUNT = `query($m: ID!, $a: JSON) { audienceCount(appModeId: $m, audience: $a) { count exact examined people } }`;

describe('audienceCount', () => {
  let t: TestServer;
  let app: StaffApp;
  const api = staffApi(
    () => t.url,
    () => app.owner,
  );
  beforeAll(async () => {
    t = await startTestServer();
    app = await staffApp(t);
    const server = serverApi(t, app.live.server_key);
    await server.declareEvents([{ name: 'order_placed', source: 'both' }]);
    await server.identify('ada', { attributes: { plan: 'pro' } });
    await server.identify('bob', { attributes: { plan: 'free' } });
    await server.identify('cy', { attributes: { plan: 'pro' } });
    const at = new Date().toISOString();
    await server.sendEvents([{ id: 'ada-1', external_id: 'ada', name: 'order_placed', at, props: {} }]);
  });
  afterAll(() => t?.close());

  const count = async (audience: unknown, mode = app.modes.live, as?: string) =>
    (await api.ok(COUNT, { m: mode, a: audience }, as)).audienceCount;

  it('counts the people a rule reaches by their attributes and events, check-in-only conditions counted as met', async () => {
    const pro = { attribute: 'plan', op: 'is', value: 'pro' };
    expect(await count(null)).toEqual({ count: 3, exact: true, examined: 3, people: 3 });
    expect(await count(pro)).toEqual({ count: 2, exact: true, examined: 3, people: 3 });
    expect((await count({ all: [pro, { event: 'order_placed', withinDays: 30 }] })).count).toBe(1);
    expect((await count({ any: [{ attribute: 'plan', op: 'is', value: 'free' }, { event: 'order_placed' }] })).count).toBe(2);
    expect((await count({ all: [pro, { field: 'platform', op: 'in', value: ['ios'] }] })).count).toBe(2);
    const refused = await api.refused(COUNT, { m: app.modes.live, a: { all: [{ attribute: 'nope', op: 'is', value: 'x' }] } });
    expect(refused.errors!.map((e) => e.field)).toEqual(['audience.all.0.attribute']);
  });

  it('is read by the workspace members, an agent too, and no one else', async () => {
    const agent = await memberOf(t, app.workspaceId, 'agent');
    expect((await count(null, app.modes.live, agent.token)).count).toBe(3);
    const stranger = await staffApp(t);
    const r = await api.refused(COUNT, { m: app.modes.live, a: null }, stranger.owner);
    expect(r.code).toBe('not_found'); // as every read of another workspace's app-mode
  });

  it(`examines at most ${COUNT_EXAMINED} people, then answers "at least" with the app-mode's people beside`, async () => {
    await exec(
      t.svc,
      sql`INSERT INTO contact (id, app_mode_id, external_id, attributes)
          SELECT 'bulk-' || i, ${app.modes.test}, 'p' || lpad(i::text, 6, '0'), '{}'::jsonb FROM generate_series(1, ${COUNT_EXAMINED + 1}) i`,
    );
    const started = Date.now();
    expect(await count(null, app.modes.test)).toEqual({
      count: COUNT_EXAMINED,
      exact: false,
      examined: COUNT_EXAMINED,
      people: COUNT_EXAMINED + 1,
    });
    console.log(`audienceCount over ${COUNT_EXAMINED} people: ${Date.now() - started} ms`);
  });
});
