import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { userToken } from './support/http.js';

// `npm start` with no DATABASE_URL: the embedded PostgreSQL in the data folder, migrated, a demo
// app printed once with a curl line that works as printed; a second start reuses the data.
// It runs what `npm start` runs, the build in dist/ (the global setup rebuilt it), from another
// working directory.

const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('../dist/src/main.js', import.meta.url));
let dataDir: string;
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

async function start(port: number) {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'info',
  };
  const child = spawn(process.execPath, [MAIN], { cwd: tmpdir(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  // A first start migrates and makes the demo content: on a loaded machine that may take a while.
  for (let i = 0; i < 900; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, output: () => out };
    if (child.exitCode !== null) throw new Error(`the server exited: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not become ready: ${out}`);
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });

describe('npm start on the embedded PostgreSQL', () => {
  it('serves the demo app as printed, once, and reuses the data on the next start', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'crm-start-'));
    const port = await freePort();
    const first = await start(port);
    const banner = first.output();
    const curl = banner
      .split('\n')
      .find((l) => l.trim().startsWith('curl '))!
      .trim();
    const liveKey = /live app key\s+(app_\S+)/.exec(banner)![1]!;
    expect(banner).toMatch(/test app key\s+app_test_\S+/);
    expect(banner).toMatch(/live server key\s+crm_sk_\S+/);
    expect(banner).toMatch(/identity secret\s+\S+/);
    expect(banner).toContain(`http://127.0.0.1:${port}`);
    // The log says where the database files are.
    const serving = banner
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'serving');
    expect(serving).toMatchObject({ port, database: path.join(dataDir, 'pg') });

    const { stdout } = await run('sh', ['-c', curl]);
    expect(JSON.parse(stdout)).toMatchObject({ key: liveKey, mode: 'live', name: 'Demo app' });

    // The demo content, through the real API: the help center in two languages, the demo
    // person's two conversations (one with a staff reply), another's ticket and conversation, and the live banner.
    const base = `http://127.0.0.1:${port}`;
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const r = await fetch(`${base}${path}`, { headers });
      expect(r.status, `${path}: ${r.status}`).toBe(200);
      return r.json() as Promise<any>;
    };
    for (const lang of ['en', 'fr']) {
      const collections = await get(`/public/v1/help/collections?lang=${lang}`, { 'X-CRM-App-Key': liveKey });
      expect(JSON.stringify(collections)).toContain(lang === 'en' ? 'Getting started' : 'Premiers pas');
      const articles = await get(`/public/v1/help/articles?lang=${lang}`, { 'X-CRM-App-Key': liveKey });
      expect(JSON.stringify(articles)).toContain(lang === 'en' ? 'Create your account' : 'Créer votre compte');
    }
    const identitySecret = /identity secret\s+(\S+)/.exec(banner)![1]!;
    const guest = { 'X-CRM-App-Key': liveKey, Authorization: `Bearer ${await userToken(identitySecret, { sub: 'ada' })}` };
    const conversations = await get('/guest/v1/conversations', guest);
    expect(conversations.items).toHaveLength(2);
    const answered = await Promise.all(conversations.items.map((c: { id: string }) => get(`/guest/v1/conversations/${c.id}`, guest)));
    expect(JSON.stringify(answered)).toContain('open Settings, then Team');
    const grace = { 'X-CRM-App-Key': liveKey, Authorization: `Bearer ${await userToken(identitySecret, { sub: 'grace' })}` };
    expect((await get('/guest/v1/tickets', grace)).items).toHaveLength(1);
    // Grace's open conversation waiting in the inbox: the team's reply and her answer, never the team's note.
    const graceTalks = await get('/guest/v1/conversations', grace);
    const graceSeen = JSON.stringify(
      await Promise.all(graceTalks.items.map((c: { id: string }) => get(`/guest/v1/conversations/${c.id}`, grace))),
    );
    expect(graceSeen).toContain('delivery log');
    expect(graceSeen).toContain('We deployed then');
    expect(graceSeen).not.toContain('probably their deploy');
    const checkin = await fetch(`${base}/guest/v1/checkin`, {
      method: 'POST',
      headers: { ...guest, 'Content-Type': 'application/json' },
      body: JSON.stringify({ app_version: '1.0.0', platform: 'web', session_id: 'first-hour' }),
    });
    expect(checkin.status).toBe(200);
    expect(JSON.stringify(await checkin.json())).toContain('Welcome to the demo app');
    // The front page links the demo's help site and the demo site with the messenger, which is here.
    const front = await (await fetch(`${base}/`)).text();
    expect(front).toContain(`href="/help/${liveKey}"`);
    expect(front).toContain('href="/demo/"');
    expect(banner).toContain(`demo site          ${base}/demo/`);
    expect(await (await fetch(`${base}/demo/`)).text()).toContain(`data-app-key="${liveKey}"`);
    expect(await stop(first.child)).toBe(0);

    const second = await start(port);
    expect(second.output()).not.toContain('Demo app created');
    const again = await fetch(`http://127.0.0.1:${port}/public/v1/apps/${liveKey}`);
    expect(again.status).toBe(200);
    // Nothing was made twice.
    const again2 = await fetch(`http://127.0.0.1:${port}/public/v1/help/collections?lang=en`, { headers: { 'X-CRM-App-Key': liveKey } });
    expect(((await again2.json()) as { items: unknown[] }).items).toHaveLength(2);
    expect(await stop(second.child)).toBe(0);
    // The embedded PostgreSQL stopped with the server that started it.
    await expect(readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).rejects.toThrow();
  }, 180_000);
});

const rows = async (url: string, sql: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
};

describe('the embedded PostgreSQL, run as root', () => {
  // A clone in /root/app: PostgreSQL runs as another user, who cannot enter /root.
  it.runIf(process.getuid?.() === 0)(
    'keeps its cluster where the database user can reach it when the data folder is private, and finds it again',
    async () => {
      const parent = await mkdtemp(path.join(tmpdir(), 'crm-private-'));
      await chmod(parent, 0o700);
      const dataDir = path.join(parent, 'app', '.data');
      let files = '';
      try {
        const first = await startEmbeddedPostgres(dataDir);
        files = first.files;
        try {
          expect(files.startsWith(parent)).toBe(false);
          expect(await readFile(path.join(path.dirname(files), 'data-dir'), 'utf8')).toBe(`${dataDir}\n`);
          await rows(first.adminUrl, 'CREATE TABLE kept (v text)');
          await rows(first.adminUrl, 'INSERT INTO kept VALUES ($1)', ['survives a restart']);
        } finally {
          await first.stop();
        }
        await expect(stat(path.join(files, 'postmaster.pid'))).rejects.toThrow();
        // Its password and port stay in the data folder.
        expect((await stat(path.join(dataDir, 'postgres.json'))).isFile()).toBe(true);

        const second = await startEmbeddedPostgres(dataDir);
        try {
          expect(second.files).toBe(files);
          expect(await rows(second.adminUrl, 'SELECT v FROM kept')).toEqual([{ v: 'survives a restart' }]);
        } finally {
          await second.stop();
        }
      } finally {
        await rm(parent, { recursive: true, force: true });
        if (files) {
          await rm(path.dirname(files), { recursive: true, force: true });
          await rmdir(path.dirname(path.dirname(files))).catch(() => {}); // only when no other data folder uses it
        }
      }
    },
    60_000,
  );
});
