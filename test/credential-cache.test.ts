import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServices, type OpenServices } from '../src/services.js';
import { createTestDatabase } from './support/db.js';
import { staffApi } from './support/graphql.js';
import { call, userToken } from './support/http.js';
import { freePorts, launch, ready, stopProcess, type Proc } from './support/processes.js';
import { seedApp, TEST_SECRET_KEY, testConfig, type SeededApp } from './support/server.js';

// Two real server processes on one database, each keeping credentials in memory. A change made
// through one of them (or by anything else that writes the rows) is announced by PostgreSQL
// triggers, and the other stops using what it held within a second.

let dbUrl: string;
let svc: OpenServices;
let a: Proc;
let b: Proc;

beforeAll(async () => {
  dbUrl = await createTestDatabase();
  const [portA, portB] = await freePorts(2);
  // The polls below come from one address: keep them clear of the guest address limit.
  process.env.RATE_GUEST_ADDRESS_PER_MINUTE = '100000';
  a = launch(dbUrl, portA!);
  b = launch(dbUrl, portB!);
  svc = await openServices({ config: testConfig(), url: dbUrl, secretKey: TEST_SECRET_KEY });
  await Promise.all([ready(a), ready(b)]);
});
afterAll(async () => {
  await Promise.all([stopProcess(a), stopProcess(b)]);
  await svc?.close();
});

const WITHIN_A_SECOND = { timeout: 1000, interval: 20 };

/** A staff operation that must succeed, sent to one of the two servers. */
const gql = (base: string, token: string, query: string, variables: Record<string, unknown>) =>
  staffApi(
    () => base,
    () => token,
  ).ok(query, variables);

async function ownerToken(app: SeededApp): Promise<string> {
  const data = await gql(a.url, '', 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }', {
    e: app.ownerEmail,
    p: app.ownerPassword,
  });
  return data.signIn.token;
}

const liveModeId = async (app: SeededApp) => (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
const consent = (proc: Proc, appKey: string, token: string) =>
  call(proc.url, 'GET', '/guest/v1/consent', { headers: { 'X-CRM-App-Key': appKey, Authorization: `Bearer ${token}` } });
const serverCall = (proc: Proc, key: string) =>
  call(proc.url, 'PUT', '/server/v1/event-definitions', { headers: { Authorization: `Bearer ${key}` }, json: { definitions: [] } });
const answer = async (r: Promise<Awaited<ReturnType<typeof call>>>) => {
  const { status, json } = await r;
  return { status, code: json?.code as string | undefined, detail: json?.detail as string | undefined };
};

async function settings(token: string, appModeId: string, input: Record<string, unknown>) {
  await gql(a.url, token, 'mutation($m: ID!, $i: AppSettingsInput!) { updateAppSettings(appModeId: $m, input: $i) { id } }', {
    m: appModeId,
    i: input,
  });
}

/** Runs `sql` with the triggers off: nothing announces the change. */
async function unannounced(sql: string, params: unknown[]) {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(sql, params);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

describe('credentials kept in memory by each process', () => {
  it('a server key revoked through A is refused by B within a second', async () => {
    const app = await seedApp(svc);
    const key = app.live.server_key;
    // B holds the key in memory now.
    expect((await serverCall(b, key)).status).toBe(200);
    expect((await serverCall(b, key)).status).toBe(200);
    const { id } = await svc.db.serverKey.findFirstOrThrow({ where: { appModeId: await liveModeId(app) } });

    await gql(a.url, await ownerToken(app), 'mutation($id: ID!) { revokeServerKey(id: $id) { id revokedAt } }', { id });

    await expect
      .poll(() => answer(serverCall(b, key)), WITHIN_A_SECOND)
      .toMatchObject({ status: 401, detail: expect.stringMatching(/revoked/) });
    expect((await serverCall(a, key)).status).toBe(401);
  });

  it('an app switched off, then archived, then restored through A is seen so by B within a second, guest and server alike', async () => {
    const app = await seedApp(svc);
    const token = await userToken(app.live.identity_secret, { sub: 'u-1' });
    const owner = await ownerToken(app);
    const modeId = await liveModeId(app);
    expect((await consent(b, app.live.app_key, token)).status).toBe(200);
    expect((await serverCall(b, app.live.server_key)).status).toBe(200);

    await settings(owner, modeId, { switchedOff: true });
    await expect
      .poll(() => answer(consent(b, app.live.app_key, token)), WITHIN_A_SECOND)
      .toMatchObject({ status: 403, code: 'app_switched_off' });

    await settings(owner, modeId, { switchedOff: false, archived: true });
    await expect
      .poll(() => answer(consent(b, app.live.app_key, token)), WITHIN_A_SECOND)
      .toMatchObject({ status: 401, code: 'unauthorized' });
    await expect
      .poll(() => answer(serverCall(b, app.live.server_key)), WITHIN_A_SECOND)
      .toMatchObject({ status: 401, detail: expect.stringMatching(/archived/) });

    await settings(owner, modeId, { archived: false });
    await expect.poll(() => answer(consent(b, app.live.app_key, token)), WITHIN_A_SECOND).toMatchObject({ status: 200 });
    await expect.poll(() => answer(serverCall(b, app.live.server_key)), WITHIN_A_SECOND).toMatchObject({ status: 200 });
  });

  it('an identity secret renewed by any writer is used by B within a second, for the "other mode" detail too', async () => {
    const app = await seedApp(svc);
    const oldLive = await userToken(app.live.identity_secret, { sub: 'u-1' });
    const oldTest = await userToken(app.test.identity_secret, { sub: 'u-1' });
    expect((await consent(b, app.live.app_key, oldLive)).status).toBe(200);
    expect(await answer(consent(b, app.live.app_key, oldTest))).toMatchObject({
      status: 401,
      detail: expect.stringMatching(/test mode's identity secret/),
    });

    // Written straight to the table, as an operator's script would: no service code is told.
    const liveSecret = randomBytes(24).toString('base64url');
    const testSecret = randomBytes(24).toString('base64url');
    await svc.db.appMode.update({ where: { appKey: app.live.app_key }, data: { identitySecretEnc: svc.secrets.seal(liveSecret) } });
    await svc.db.appMode.update({ where: { appKey: app.test.app_key }, data: { identitySecretEnc: svc.secrets.seal(testSecret) } });

    await expect
      .poll(() => answer(consent(b, app.live.app_key, oldLive)), WITHIN_A_SECOND)
      .toMatchObject({ status: 401, detail: expect.stringMatching(/does not match/) });
    expect((await consent(b, app.live.app_key, await userToken(liveSecret, { sub: 'u-1' }))).status).toBe(200);
    expect(await answer(consent(b, app.live.app_key, oldTest))).toMatchObject({
      status: 401,
      detail: expect.stringMatching(/does not match/),
    });
    expect(await answer(consent(b, app.live.app_key, await userToken(testSecret, { sub: 'u-1' })))).toMatchObject({
      status: 401,
      detail: expect.stringMatching(/test mode's identity secret/),
    });
  });

  it('B answers from memory until the notice comes: an unannounced change is not seen, the notice alone drops it', async () => {
    const app = await seedApp(svc);
    const token = await userToken(app.live.identity_secret, { sub: 'u-1' });
    expect((await consent(b, app.live.app_key, token)).status).toBe(200);
    // The app's own creation was announced too, and a notice heard after B first read the app drops
    // what it read (on a busy machine, a few milliseconds later): read it again once that has passed.
    await new Promise((r) => setTimeout(r, 300));
    expect((await consent(b, app.live.app_key, token)).status).toBe(200);

    await unannounced('UPDATE app_mode SET switched_off = true WHERE app_key = $1', [app.live.app_key]);
    // Read from the database, this would be 403: B answers from what it holds.
    expect((await consent(b, app.live.app_key, token)).status).toBe(200);

    await svc.db.$executeRaw`SELECT pg_notify('crm_credentials', ${app.appId})`;
    await expect
      .poll(() => answer(consent(b, app.live.app_key, token)), WITHIN_A_SECOND)
      .toMatchObject({ status: 403, code: 'app_switched_off' });
  });

  it('drops everything when its LISTEN connection is cut, so a change it could not hear of is read fresh', async () => {
    const app = await seedApp(svc);
    const token = await userToken(app.live.identity_secret, { sub: 'u-1' });
    expect((await consent(b, app.live.app_key, token)).status).toBe(200);

    const killer = new pg.Client({ connectionString: dbUrl });
    await killer.connect();
    try {
      const { rowCount } = await killer.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN crm_outbox%'`,
      );
      expect(rowCount).toBe(2);
    } finally {
      await killer.end();
    }
    await unannounced('UPDATE app_mode SET switched_off = true WHERE app_key = $1', [app.live.app_key]);

    await expect
      .poll(() => answer(consent(b, app.live.app_key, token)), { timeout: 5000, interval: 20 })
      .toMatchObject({ status: 403, code: 'app_switched_off' });
    // Listening again: memory serves and is dropped by notices as before.
    await svc.db.appMode.update({ where: { appKey: app.live.app_key }, data: { switchedOff: false } });
    await expect.poll(() => answer(consent(b, app.live.app_key, token)), { timeout: 5000, interval: 20 }).toMatchObject({ status: 200 });
  });
});

describe('the server key limit across both processes', () => {
  it('admits exactly 1,200 of 1,300 concurrent requests spread over A and B', async () => {
    const key = (await seedApp(svc, 'Limited')).live.server_key;
    const statuses: number[] = [];
    for (let i = 0; i < 1300; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, (_, j) => serverCall((i + j) % 2 ? a : b, key)));
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(1200);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
  });
});
