import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { hashServerKey } from '../src/domain/apps/credentials.js';
import { openServices, type OpenServices } from '../src/services.js';
import { createEmptyDatabase, createTestDatabase } from './support/db.js';
import { seedApp, testConfig, TEST_SECRET_KEY } from './support/server.js';

// The real `crm` bin, spawned as operators run it (the build in dist/, which the global setup
// refreshed), on a real database. Each test makes its own database and waits only for its own
// processes: its timeout measures its own work, whatever else the machine runs. Independent runs
// of one test go together through Promise.all.

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

/** The test's own database (a copy of the migrated template), the services on it, and `crm` on it. */
async function fresh() {
  const dbUrl = await createTestDatabase();
  const svc: OpenServices = await openServices({ config: testConfig(), url: dbUrl, secretKey: TEST_SECRET_KEY });
  onTestFinished(() => svc.close());
  return {
    svc,
    run: (args: string[], opts?: { cwd?: string }) => crm(dbUrl, args, opts),
    modeRow: (appKey: string) => svc.db.appMode.findUniqueOrThrow({ where: { appKey } }),
  };
}

const CREDENTIALS = ['app_key', 'server_key', 'identity_secret', 'inbound_secret'];

describe('crm', () => {
  it('makes a workspace with its owner, and apps in a new or a given workspace', async () => {
    const { svc, run, modeRow } = await fresh();
    const [ws, solo] = await Promise.all([
      run([
        'workspace',
        'create',
        '--name',
        'Acme',
        '--owner-email',
        'Boss@Acme.test',
        '--owner-password',
        'correct horse battery',
        '--json',
      ]),
      run(['app', 'create', '--name', 'Solo', '--json']),
    ]);
    const w = ok(ws);
    expect(Object.keys(w).sort()).toEqual(['owner_id', 'workspace_id']);
    expect(await svc.db.workspace.findUnique({ where: { id: w.workspace_id } })).toMatchObject({ name: 'Acme' });
    expect(await svc.db.staffUser.findUnique({ where: { id: w.owner_id } })).toMatchObject({ email: 'boss@acme.test' });
    expect(await svc.db.membership.findMany({ where: { workspaceId: w.workspace_id } })).toMatchObject([
      { staffUserId: w.owner_id, role: 'owner' },
    ]);

    const inAcme = ok(await run(['app', 'create', '--name', 'Acme app', '--workspace', w.workspace_id, '--json']));
    expect(inAcme.workspace_id).toBe(w.workspace_id);
    expect((await svc.db.app.findUniqueOrThrow({ where: { id: inAcme.app_id } })).workspaceId).toBe(w.workspace_id);

    // Without --workspace: a new workspace named after the app, with no owner.
    const s = ok(solo);
    expect(await svc.db.workspace.findUnique({ where: { id: s.workspace_id } })).toMatchObject({ name: 'Solo workspace' });
    expect(await svc.db.membership.count({ where: { workspaceId: s.workspace_id } })).toBe(0);

    for (const app of [s, inAcme]) {
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

  it('prints usage for --help and help, without a database', async () => {
    const run = (args: string[]) => crm('postgresql://127.0.0.1:1/none', args);
    const [dashed, word, command] = await Promise.all([run(['--help']), run(['help']), run(['app', 'set', '--help'])]);
    for (const h of [dashed, word]) {
      expect(h.code).toBe(0);
      for (const c of ['workspace create', 'app create', 'app set', 'key create', 'key revoke', 'staff create'])
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
