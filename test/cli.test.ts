import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { hashServerKey } from '../src/domain/apps/credentials.js';
import { openServices, type OpenServices } from '../src/services.js';
import { createEmptyDatabase, createTestDatabase } from './support/db.js';
import { call } from './support/http.js';
import { seedApp, startTestServer, testConfig, TEST_SECRET_KEY } from './support/server.js';

// The real `crm` bin, spawned as operators run it (the build in dist/, which the global setup
// refreshed), on a real database. Each test makes its own database and waits only for its own
// processes, so the tests run side by side (describe.concurrent: most of their time is spent
// waiting for the processes they spawn). Independent runs of one test go together through Promise.all.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(root, 'scripts/crm.mjs');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed, when --json was given. */
  json: any;
}

async function crm(dbUrl: string, args: string[], opts: { cwd?: string } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    DATABASE_URL: dbUrl,
    CRM_SECRET_KEY: TEST_SECRET_KEY,
    LOG_LEVEL: 'silent',
  };
  const { code, stdout, stderr } = await new Promise<Omit<Run, 'json'>>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  let json: any;
  if (args.includes('--json')) {
    // The contract: exactly one JSON object, on one line, and nothing else anywhere.
    expect(stdout.endsWith('\n') && stdout.trimEnd().split('\n').length === 1, `one line of JSON, got: ${stdout}${stderr}`).toBe(true);
    json = JSON.parse(stdout);
    expect(typeof json === 'object' && json !== null && !Array.isArray(json)).toBe(true);
    expect(stderr, 'with --json, stderr stays empty').toBe('');
  }
  return { code, stdout, stderr, json };
}

const ok = (r: Run) => {
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};

/** A refusal: non-zero exit, the error object, and its code (and field when given). */
function refused(r: Run, status: number, code: string, field?: string) {
  expect(r.code, r.stdout + r.stderr).toBe(status);
  expect(r.json.error.code).toBe(code);
  expect(typeof r.json.error.message).toBe('string');
  expect(r.json.error.message.length).toBeGreaterThan(0);
  if (field !== undefined) expect(r.json.error.field).toBe(field);
  expect(Object.keys(r.json)).toEqual(['error']);
}

/** Closed once every test is done (the tests run side by side: a test's own hooks are its context's). */
const opened: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(opened.map((o) => o.close())));

/** The test's own database (a copy of the migrated template), the services on it, and `crm` on it. */
async function fresh() {
  const dbUrl = await createTestDatabase();
  const svc: OpenServices = await openServices({ config: testConfig(), url: dbUrl, secretKey: TEST_SECRET_KEY });
  opened.push(svc);
  return {
    svc,
    run: (args: string[], opts?: { cwd?: string }) => crm(dbUrl, args, opts),
    modeRow: (appKey: string) => svc.db.appMode.findUniqueOrThrow({ where: { appKey } }),
  };
}

const CREDENTIALS = ['app_key', 'server_key', 'identity_secret', 'inbound_secret'];

// Side by side, a test waits for the others' processes too: its time is not its own work alone.
describe.concurrent('crm', { timeout: 90_000 }, () => {
  it('makes a workspace with its owner, and apps in a new, the only or a given workspace', async () => {
    const { svc, run, modeRow } = await fresh();
    // Without --workspace on an empty database: a new workspace named after the app, with no owner.
    // Two at once agree: the second sees the first's workspace.
    const [solo, second] = await Promise.all([
      run(['app', 'create', '--name', 'Solo', '--json']),
      run(['app', 'create', '--name', 'Second', '--json']),
    ]);
    const s = ok(solo);
    const only = ok(second);
    expect(await svc.db.workspace.count()).toBe(1);
    expect(only.workspace_id).toBe(s.workspace_id);
    expect(await svc.db.workspace.findUnique({ where: { id: s.workspace_id } })).toMatchObject({
      name: expect.stringMatching(/^(Solo|Second) workspace$/),
    });
    expect(await svc.db.membership.count({ where: { workspaceId: s.workspace_id } })).toBe(0);

    const ws = await run([
      'workspace',
      'create',
      '--name',
      'Acme',
      '--owner-email',
      'Boss@Acme.test',
      '--owner-password',
      'correct horse battery',
      '--json',
    ]);
    const w = ok(ws);
    expect(Object.keys(w).sort()).toEqual(['owner_id', 'workspace_id']);
    expect(await svc.db.workspace.findUnique({ where: { id: w.workspace_id } })).toMatchObject({ name: 'Acme' });
    expect(await svc.db.staffUser.findUnique({ where: { id: w.owner_id } })).toMatchObject({ email: 'boss@acme.test' });
    expect(await svc.db.membership.findMany({ where: { workspaceId: w.workspace_id } })).toMatchObject([
      { staffUserId: w.owner_id, role: 'owner' },
    ]);

    // Two workspaces now: without --workspace the app is refused, naming the flag, and nothing is made.
    const [ambiguous, ambiguousText] = await Promise.all([
      run(['app', 'create', '--name', 'Where', '--json']),
      run(['app', 'create', '--name', 'Where']),
    ]);
    refused(ambiguous, 1, 'workspace_required', 'workspace');
    expect(ambiguous.json.error.message).toContain('--workspace');
    expect(ambiguous.json.error.message).toContain(w.workspace_id);
    expect(ambiguousText.code).toBe(1);
    expect(ambiguousText.stderr).toMatch(/^crm: There are several workspaces; name the app's workspace with --workspace/);
    expect(await svc.db.app.count({ where: { name: 'Where' } })).toBe(0);
    expect(await svc.db.workspace.count()).toBe(2);

    const inAcme = ok(await run(['app', 'create', '--name', 'Acme app', '--workspace', w.workspace_id, '--json']));
    expect(inAcme.workspace_id).toBe(w.workspace_id);
    expect((await svc.db.app.findUniqueOrThrow({ where: { id: inAcme.app_id } })).workspaceId).toBe(w.workspace_id);

    for (const app of [s, only, inAcme]) {
      expect(Object.keys(app).sort()).toEqual(['app_id', 'live', 'test', 'workspace_id']);
      expect(Object.keys(app.live).sort()).toEqual([...CREDENTIALS].sort());
      expect(Object.keys(app.test).sort()).toEqual([...CREDENTIALS].sort());
      expect(app.live.app_key).toMatch(/^app_[0-9A-Za-z]+$/);
      expect(app.live.app_key.startsWith('app_test_')).toBe(false);
      expect(app.test.app_key).toMatch(/^app_test_[0-9A-Za-z]+$/);
      expect(app.live.server_key).toMatch(/^crm_sk_[0-9A-Za-z]+$/);
      expect(app.live.server_key.startsWith('crm_sk_test_')).toBe(false);
      expect(app.test.server_key).toMatch(/^crm_sk_test_[0-9A-Za-z]+$/);
      for (const mode of ['live', 'test'] as const) {
        const row = await modeRow(app[mode].app_key);
        expect(row).toMatchObject({ appId: app.app_id, mode });
        expect(svc.secrets.open(row.identitySecretEnc)).toBe(app[mode].identity_secret);
        expect(svc.secrets.open(row.inboundSecretEnc)).toBe(app[mode].inbound_secret);
        const keys = await svc.db.serverKey.findMany({ where: { appModeId: row.id } });
        expect(keys.map((k) => k.keyHash)).toEqual([hashServerKey(app[mode].server_key)]);
      }
    }
  });

  it('changes each setting of the mode its key names, and prints them without secrets', async () => {
    const { svc, run, modeRow } = await fresh();
    const a = await seedApp(svc, 'Settings app');
    const b = await seedApp(svc, 'Test-mode app');
    const bLiveBefore = await modeRow(b.live.app_key);
    const [on, testOnly, shown] = await Promise.all([
      run([
        'app',
        'set',
        a.live.app_key,
        '--web-origins',
        'https://a.example, http://localhost:3000',
        '--unverified-signin',
        'on',
        '--strict-data',
        'on',
        '--archived',
        'on',
        '--switched-off',
        'on',
        '--home-origin',
        'https://home.example',
        '--parts',
        'messenger,inapp',
        '--json',
      ]),
      run(['app', 'set', b.test.app_key, '--web-origins', 'https://t.example', '--parts', 'help', '--json']),
      run(['app', 'set', b.live.app_key, '--json']),
    ]);

    const s = ok(on);
    expect(s).toMatchObject({
      app_key: a.live.app_key,
      app_id: a.appId,
      mode: 'live',
      web_origins: ['https://a.example', 'http://localhost:3000'],
      unverified_signin: true,
      strict_data: true,
      archived: true,
      switched_off: true,
      parts: { messenger: true, help: false, inapp: true },
      home_origin: 'https://home.example',
      languages: ['en'],
      default_language: 'en',
      currency: 'USD',
      brand: { name: 'Settings app', color: expect.stringMatching(/^#/), logo_url: null },
    });
    const printed = JSON.stringify(s);
    for (const secret of [a.live.identity_secret, a.live.inbound_secret, a.live.server_key]) expect(printed).not.toContain(secret);
    expect(printed).not.toMatch(/secret|_enc|hash/i);
    expect(await modeRow(a.live.app_key)).toMatchObject({
      webOrigins: ['https://a.example', 'http://localhost:3000'],
      unverifiedSignin: true,
      strictData: true,
      archived: true,
      switchedOff: true,
      messengerOn: true,
      helpOn: false,
      inappOn: true,
      homeOrigin: 'https://home.example',
    });
    // The live key named the live mode only.
    expect(await modeRow(a.test.app_key)).toMatchObject({ webOrigins: [], archived: false, homeOrigin: null, helpOn: true });

    // The test key changes the test mode only.
    expect(ok(testOnly)).toMatchObject({
      app_key: b.test.app_key,
      mode: 'test',
      web_origins: ['https://t.example'],
      parts: { messenger: false, help: true, inapp: false },
    });
    expect(await modeRow(b.test.app_key)).toMatchObject({
      webOrigins: ['https://t.example'],
      messengerOn: false,
      helpOn: true,
      inappOn: false,
    });
    expect(await modeRow(b.live.app_key)).toEqual(bLiveBefore);
    // With no flag the settings are printed and nothing is written.
    expect(ok(shown)).toMatchObject({
      app_key: b.live.app_key,
      mode: 'live',
      web_origins: [],
      updated_at: bLiveBefore.updatedAt.toISOString(),
    });

    // Back off again; '' clears the origins and the home origin, and switches every part off.
    const off = ok(
      await run([
        'app',
        'set',
        a.live.app_key,
        '--web-origins',
        '',
        '--unverified-signin',
        'off',
        '--strict-data',
        'off',
        '--archived',
        'off',
        '--switched-off',
        'off',
        '--home-origin',
        '',
        '--parts',
        '',
        '--json',
      ]),
    );
    expect(off).toMatchObject({
      web_origins: [],
      unverified_signin: false,
      strict_data: false,
      archived: false,
      switched_off: false,
      home_origin: null,
      parts: { messenger: false, help: false, inapp: false },
    });
    expect(await modeRow(a.live.app_key)).toMatchObject({
      webOrigins: [],
      unverifiedSignin: false,
      strictData: false,
      archived: false,
      switchedOff: false,
      homeOrigin: null,
      messengerOn: false,
      helpOn: false,
      inappOn: false,
    });
  });

  it('creates a server key for a mode, keeps only its hash, and revokes it (twice is safe)', async () => {
    const { svc, run, modeRow } = await fresh();
    const a = await seedApp(svc, 'Keys app');
    const [created, human] = await Promise.all([run(['key', 'create', a.test.app_key, '--json']), run(['key', 'create', a.live.app_key])]);
    const { server_key } = ok(created);
    expect(Object.keys(created.json)).toEqual(['server_key']);
    expect(server_key).toMatch(/^crm_sk_test_[0-9A-Za-z]+$/);
    // Without --json: a short human line, not JSON.
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Created server key crm_sk_[0-9A-Za-z]+ for app_/);
    expect(human.stdout.startsWith('crm_sk_test_')).toBe(false);

    const testMode = await modeRow(a.test.app_key);
    const row = await svc.db.serverKey.findUniqueOrThrow({ where: { keyHash: hashServerKey(server_key) } });
    expect(row).toMatchObject({ appModeId: testMode.id, revokedAt: null });
    // The raw key is stored nowhere in server_key, in no column.
    const { rows } = await svc.pool.query('SELECT * FROM server_key');
    expect(JSON.stringify(rows)).not.toContain(server_key);
    expect(JSON.stringify(rows)).not.toContain(server_key.slice('crm_sk_test_'.length));

    expect(ok(await run(['key', 'revoke', server_key, '--json']))).toEqual({ revoked: true });
    const revokedAt = (await svc.db.serverKey.findUniqueOrThrow({ where: { id: row.id } })).revokedAt;
    expect(revokedAt).toBeInstanceOf(Date);
    expect(ok(await run(['key', 'revoke', server_key, '--json']))).toEqual({ revoked: true });
    expect((await svc.db.serverKey.findUniqueOrThrow({ where: { id: row.id } })).revokedAt).toEqual(revokedAt);
    // The key made with the app is untouched.
    expect(await svc.db.serverKey.findUniqueOrThrow({ where: { keyHash: hashServerKey(a.test.server_key) } })).toMatchObject({
      revokedAt: null,
    });
  });

  it('refuses every bad argument with a clear error, exits non-zero and changes nothing', async () => {
    const { svc, run, modeRow } = await fresh();
    const a = await seedApp(svc, 'Untouched app');
    // What these runs could have touched.
    const snapshot = async () => {
      const live = await modeRow(a.live.app_key);
      const test = await modeRow(a.test.app_key);
      return {
        live,
        test,
        keys: await svc.db.serverKey.findMany({ where: { appModeId: { in: [live.id, test.id] } }, orderBy: { id: 'asc' } }),
        apps: await svc.db.app.count({ where: { name: { in: ['Lost', 'Nameless'] } } }),
        workspaces: await svc.db.workspace.count({ where: { name: { in: ['W', 'Lost workspace'] } } }),
        staff: await svc.db.staffUser.count({ where: { email: 'w@example.com' } }),
      };
    };
    const before = await snapshot();
    const set = (...flags: string[]) => run(['app', 'set', a.live.app_key, ...flags, '--json']);
    const origins21 = Array.from({ length: 21 }, (_, i) => `https://o${i}.example`).join(',');
    const ws = ['workspace', 'create', '--name', 'W', '--owner-email'];

    const r = await Promise.all([
      // Refused by the service (exit 1), each after the good flags beside it were read too.
      /* 0 */ set('--archived', 'on', '--parts', 'help', '--web-origins', 'https://fine.example,http://bad.example'),
      /* 1 */ set('--unverified-signin', 'on', '--web-origins', 'https://example.com/path'),
      /* 2 */ set('--switched-off', 'on', '--web-origins', origins21),
      /* 3 */ set('--strict-data', 'on', '--home-origin', 'https://home.example/path'),
      /* 4 */ run(['app', 'set', 'app_doesnotexist123456', '--archived', 'on', '--json']),
      /* 5 */ run(['key', 'create', 'app_test_doesnotexist123456', '--json']),
      /* 6 */ run(['key', 'revoke', 'crm_sk_doesnotexist0000000000000000000000', '--json']),
      /* 7 */ run(['app', 'create', '--name', 'Lost', '--workspace', '00000000-0000-4000-8000-000000000000', '--json']),
      /* 8 */ run([...ws, a.ownerEmail, '--owner-password', 'long enough password', '--json']),
      /* 9 */ run(['app', 'set', a.live.app_key, '--web-origins', 'http://example.com']),
      // Not understood by the CLI (exit 2), before any database is opened.
      /* 10 */ set('--bogus', 'x'),
      /* 11 */ run([...ws, 'w@example.com', '--json']),
      /* 12 */ run(['app', 'create', '--json']),
      /* 13 */ set('--archived', 'yes'),
      /* 14 */ set('--parts', 'messenger,chat'),
      /* 15 */ run(['app', 'set', '--archived', 'on', '--json']),
      /* 16 */ run(['app', 'set', a.live.app_key, a.test.app_key, '--json']),
      /* 17 */ run(['frobnicate', '--json']),
    ]);

    refused(r[0]!, 1, 'invalid_request', 'web-origins.1');
    expect(r[0]!.json.error.message).toMatch(/"http:\/\/bad\.example" must use https/);
    refused(r[1]!, 1, 'invalid_request', 'web-origins.0');
    expect(r[1]!.json.error.message).toMatch(/no path/);
    refused(r[2]!, 1, 'invalid_request', 'web-origins.20');
    expect(r[2]!.json.error.message).toMatch(/at most 20/);
    refused(r[3]!, 1, 'invalid_request', 'home-origin');
    refused(r[4]!, 1, 'not_found', 'app_key');
    refused(r[5]!, 1, 'not_found', 'app_key');
    refused(r[6]!, 1, 'not_found', 'server_key');
    refused(r[7]!, 1, 'not_found', 'workspace');
    refused(r[8]!, 1, 'email_taken');
    // Without --json the message goes to stderr and stdout stays empty.
    expect(r[9]!.code).toBe(1);
    expect(r[9]!.stdout).toBe('');
    expect(r[9]!.stderr).toMatch(/^crm: web-origins\.0: "http:\/\/example\.com" must use https/);
    refused(r[10]!, 2, 'usage', 'bogus');
    expect(r[10]!.json.error.message).toMatch(/--bogus/);
    refused(r[11]!, 2, 'usage', 'owner-password');
    refused(r[12]!, 2, 'usage', 'name');
    refused(r[13]!, 2, 'usage', 'archived');
    expect(r[13]!.json.error.message).toMatch(/on or off/);
    refused(r[14]!, 2, 'usage', 'parts');
    refused(r[15]!, 2, 'usage', 'app_key');
    refused(r[16]!, 2, 'usage');
    refused(r[17]!, 2, 'usage');

    expect(await snapshot()).toEqual(before);
  });

  it('makes one workspace of two asked at once for the same new owner, refusing the other as email_taken', async () => {
    const { svc, run } = await fresh();
    const before = await svc.db.workspace.count();
    const ask = (name: string) =>
      run([
        'workspace',
        'create',
        '--name',
        name,
        '--owner-email',
        'twice@owner.test',
        '--owner-password',
        'correct horse battery',
        '--json',
      ]);
    const answers = await Promise.all([ask('First'), ask('Second')]);
    expect(answers.map((a) => a.code).sort()).toEqual([0, 1]);
    refused(
      answers.find((a) => a.code === 1)!,
      1,
      'email_taken',
    );
    expect(await svc.db.workspace.count()).toBe(before + 1);
    expect(await svc.db.staffUser.count({ where: { email: 'twice@owner.test' } })).toBe(1);
  });

  it('makes a staff user of no workspace, and refuses a taken email', async () => {
    const { svc, run } = await fresh();
    const made = ok(
      await run(['staff', 'create', '--email', 'New@Staff.test', '--password', 'correct horse battery', '--name', 'Nell', '--json']),
    );
    expect(Object.keys(made).sort()).toEqual(['email', 'name', 'staff_user_id']);
    expect(made).toMatchObject({ email: 'new@staff.test', name: 'Nell' });
    expect(await svc.db.staffUser.findUnique({ where: { id: made.staff_user_id } })).toMatchObject({
      email: 'new@staff.test',
      name: 'Nell',
    });
    expect(await svc.db.membership.count({ where: { staffUserId: made.staff_user_id } })).toBe(0);
    const [taken, bad, missing] = await Promise.all([
      run(['staff', 'create', '--email', 'new@staff.test', '--password', 'correct horse battery', '--json']),
      run(['staff', 'create', '--email', 'not-an-email', '--password', 'short', '--json']),
      run(['staff', 'create', '--password', 'correct horse battery', '--json']),
    ]);
    refused(taken, 1, 'email_taken');
    refused(bad, 1, 'invalid_request', 'email');
    refused(missing, 2, 'usage', 'email');
    expect(await svc.db.staffUser.count()).toBe(1);
  });

  it('lists apps, shows one by either key or its id, lists keys and staff, never printing a secret', async () => {
    const { svc, run } = await fresh();
    const a = await seedApp(svc, 'Listed app');
    const b = await seedApp(svc, 'Other app');
    const extra = ok(await run(['key', 'create', a.test.app_key, '--json'])).server_key;
    ok(await run(['key', 'revoke', a.test.server_key, '--json']));
    const [list, byLive, byTest, byId, keys, staff, listText, showText, keysText, unknown, unknownKey] = await Promise.all([
      run(['app', 'list', '--json']),
      run(['app', 'show', a.live.app_key, '--json']),
      run(['app', 'show', a.test.app_key, '--json']),
      run(['app', 'show', a.appId, '--json']),
      run(['key', 'list', a.test.app_key, '--json']),
      run(['staff', 'list', '--json']),
      run(['app', 'list']),
      run(['app', 'show', a.live.app_key]),
      run(['key', 'list', a.test.app_key]),
      run(['app', 'show', '00000000-0000-4000-8000-000000000000', '--json']),
      run(['key', 'list', 'app_test_doesnotexist123456', '--json']),
    ]);
    const secrets = [a, b].flatMap((x) =>
      (['live', 'test'] as const).flatMap((m) => [
        x[m].identity_secret,
        x[m].inbound_secret,
        x[m].server_key,
        hashServerKey(x[m].server_key),
      ]),
    );
    secrets.push(extra, hashServerKey(extra), a.ownerPassword);
    for (const r of [list, byLive, byTest, byId, keys, staff, listText, showText, keysText]) {
      expect(r.code, r.stdout + r.stderr).toBe(0);
      for (const secret of secrets) expect(r.stdout).not.toContain(secret);
      for (const secret of secrets) expect(r.stdout).not.toContain(secret.slice(12, -4));
      expect(r.stdout).not.toMatch(/secret|_enc|hash/i);
    }

    expect(ok(list).apps).toEqual([
      {
        app_id: a.appId,
        name: 'Listed app',
        workspace: { id: a.workspaceId, name: 'Listed app workspace' },
        created_at: expect.any(String),
        modes: [
          { mode: 'live', app_key: a.live.app_key, archived: false, switched_off: false },
          { mode: 'test', app_key: a.test.app_key, archived: false, switched_off: false },
        ],
      },
      expect.objectContaining({ app_id: b.appId, name: 'Other app' }),
    ]);
    expect(listText.stdout).toContain(a.live.app_key);
    expect(listText.stdout).toContain('Other app');

    const shown = ok(byLive);
    expect(ok(byTest)).toEqual(shown);
    expect(ok(byId)).toEqual(shown);
    expect(shown).toMatchObject({ app_id: a.appId, name: 'Listed app', workspace: { id: a.workspaceId } });
    expect(shown.modes.map((m: any) => [m.app_key, m.web_origins, m.server_keys.length])).toEqual([
      [a.live.app_key, [], 1],
      [a.test.app_key, [], 2],
    ]);
    expect(showText.stdout).toContain(`${a.live.app_key} (live mode)`);
    expect(showText.stdout).toContain(`${a.test.app_key} (test mode)`);

    const listed = ok(keys);
    expect(listed.app_key).toBe(a.test.app_key);
    expect(listed.server_keys).toEqual([
      {
        id: expect.any(String),
        hint: `crm_sk_test_…${a.test.server_key.slice(-4)}`,
        created_at: expect.any(String),
        revoked_at: expect.any(String),
      },
      { id: expect.any(String), hint: `crm_sk_test_…${extra.slice(-4)}`, created_at: expect.any(String), revoked_at: null },
    ]);
    expect(keysText.stdout).toContain(`crm_sk_test_…${extra.slice(-4)}`);
    expect(keysText.stdout).toMatch(/revoked \d{4}-/);

    const people = ok(staff).staff_users;
    expect(people).toHaveLength(2);
    expect(people.find((p: any) => p.email === a.ownerEmail)).toMatchObject({
      name: expect.any(String),
      workspaces: [{ id: a.workspaceId, name: 'Listed app workspace', role: 'owner' }],
    });
    refused(unknown, 1, 'not_found', 'app');
    refused(unknownKey, 1, 'not_found', 'app_key');
  });

  it('makes user tokens the guest API accepts, for the mode its key names', async () => {
    const t = await startTestServer();
    opened.push(t);
    const a = await seedApp(t.svc, 'Token app');
    const run = (args: string[]) => crm(t.dbUrl, args);
    const before = Math.floor(Date.now() / 1000);
    const [live, test, plain, badTtl, zeroTtl, noSub, longSub, unknown] = await Promise.all([
      run(['token', a.live.app_key, '--sub', 'user-7', '--json']),
      run(['token', a.test.app_key, '--sub', 'tester', '--ttl', '120', '--json']),
      run(['token', a.live.app_key, '--sub', 'plain']),
      run(['token', a.live.app_key, '--sub', 'x', '--ttl', 'soon', '--json']),
      run(['token', a.live.app_key, '--sub', 'x', '--ttl', '0', '--json']),
      run(['token', a.live.app_key, '--json']),
      run(['token', a.live.app_key, '--sub', 'x'.repeat(201), '--json']),
      run(['token', 'app_doesnotexist123456', '--sub', 'x', '--json']),
    ]);
    const after = Math.floor(Date.now() / 1000);
    const l = ok(live);
    expect(Object.keys(l).sort()).toEqual(['expires_at', 'token']);
    const [header, claims] = l.token
      .split('.')
      .slice(0, 2)
      .map((p: string) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'HS256' });
    expect(claims).toEqual({ sub: 'user-7', iat: expect.any(Number), exp: expect.any(Number) });
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.iat).toBeLessThanOrEqual(after);
    expect(claims.exp - claims.iat).toBe(3600);
    expect(l.expires_at).toBe(new Date(claims.exp * 1000).toISOString());
    const tt = ok(test);
    const testClaims = JSON.parse(Buffer.from(tt.token.split('.')[1], 'base64url').toString());
    expect(testClaims.exp - testClaims.iat).toBe(120);
    // Without --json: the token alone, so that $(crm token …) is the token.
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);

    const guest = (appKey: string, token: string) =>
      call(t.url, 'GET', '/guest/v1/conversations', { headers: { 'X-CRM-App-Key': appKey, Authorization: `Bearer ${token}` } });
    const [liveOk, testOk, plainOk, crossed] = await Promise.all([
      guest(a.live.app_key, l.token),
      guest(a.test.app_key, tt.token),
      guest(a.live.app_key, plain.stdout.trim()),
      guest(a.live.app_key, tt.token),
    ]);
    expect(liveOk.status, liveOk.text).toBe(200);
    expect(liveOk.json).toMatchObject({ items: [] });
    expect(testOk.status, testOk.text).toBe(200);
    expect(plainOk.status, plainOk.text).toBe(200);
    // A test token is the test mode's: the live key refuses it, saying why.
    expect(crossed.status).toBe(401);
    expect(crossed.json.detail).toMatch(/test mode's identity secret/);

    refused(badTtl, 2, 'usage', 'ttl');
    refused(zeroTtl, 1, 'invalid_request', 'ttl');
    refused(noSub, 2, 'usage', 'sub');
    refused(longSub, 1, 'invalid_request', 'sub');
    refused(unknown, 1, 'not_found', 'app_key');
  });

  it('prints usage for --help and help, without a database', async () => {
    const run = (args: string[]) => crm('postgresql://127.0.0.1:1/none', args);
    const [dashed, word, command] = await Promise.all([run(['--help']), run(['help']), run(['app', 'set', '--help'])]);
    for (const h of [dashed, word]) {
      expect(h.code).toBe(0);
      for (const c of [
        'workspace create',
        'app create',
        'app list',
        'app show',
        'app set',
        'key create',
        'key list',
        'key revoke',
        'staff create',
        'staff list',
        'token',
      ])
        expect(h.stdout).toContain(`crm ${c}`);
    }
    expect(command.code).toBe(0);
    expect(command.stdout).toContain('--web-origins');
  });

  it('migrates a fresh empty database itself, from any working directory', async () => {
    const empty = await createEmptyDatabase();
    const made = ok(await crm(empty, ['app', 'create', '--name', 'Fresh', '--json'], { cwd: tmpdir() }));
    const fresh = await openServices({ config: testConfig(), url: empty, secretKey: TEST_SECRET_KEY });
    try {
      const { rows } = await fresh.pool.query('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL');
      expect(rows.length).toBeGreaterThan(0);
      expect(await fresh.db.appMode.findUnique({ where: { appKey: made.live.app_key } })).toMatchObject({
        appId: made.app_id,
        mode: 'live',
      });
    } finally {
      await fresh.close();
    }
  });
});
