import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { TEST_SECRET_KEY } from './server.js';

// Real server processes on a test database, as `npm start` runs them (`dist/src/main.js`, which the
// tests' global setup builds first): for what only separate processes show (LISTEN/NOTIFY between
// them, a kill and a restart).

const root = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));

export interface Proc {
  url: string;
  child: ChildProcess;
  output: string[];
}

/** Distinct free ports, held together while read so none is handed out twice. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => net.createServer().listen(0, '127.0.0.1'));
  await Promise.all(servers.map((server) => once(server, 'listening')));
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** `env` adds to or overrides the server's environment (LOG_LEVEL is silent unless it says otherwise). */
export function launch(dbUrl: string, port: number, env: Record<string, string> = {}): Proc {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    cwd: root,
    // BASE_URL explicitly: vitest sets its own BASE_URL ('/') in the environment children inherit.
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      CRM_SECRET_KEY: TEST_SECRET_KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      LOG_LEVEL: 'silent',
      // The embedded engine, even where the run has a Temporal server (CI): no worker serves these servers.
      TEMPORAL_ADDRESS: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  return { url, child, output };
}

export async function ready(proc: Proc): Promise<void> {
  // A start on a busy machine, beside the rest of the suite, can take several seconds (under tsx it took over 20 s).
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`server exited with ${proc.child.exitCode}:\n${proc.output.join('')}`);
    if (
      await fetch(`${proc.url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server not ready in time:\n${proc.output.join('')}`);
}

/** SIGTERM (or the signal given), then SIGKILL when the process has not exited within 5 s. Answers how it exited. */
export async function stopProcess(
  proc: Proc | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ code: number | null; signal: string | null } | undefined> {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return undefined;
  const exited = once(proc.child, 'exit') as Promise<[number | null, string | null]>;
  proc.child.kill(signal);
  const kill = setTimeout(() => proc.child.kill('SIGKILL'), 5000);
  const [code, how] = await exited;
  clearTimeout(kill);
  return { code, signal: how };
}
