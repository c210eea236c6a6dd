import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

// What the benchmarks that run the server in processes of its own share.

/** Stops a process with SIGTERM, or SIGKILL after 5 s. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(kill);
}

/** A TCP port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The service as users run it (dist/src/main.js) in a process of its own on 127.0.0.1:port, with
 * `env` added to its environment; answers once /readyz does.
 */
export async function serverProcess(
  url: string,
  secretKey: string,
  port: number,
  env: Record<string, string> = {},
  moreNodeArgs: string[] = [],
): Promise<ChildProcess> {
  // BENCH_SERVER_ARGS: Node options for the server under test, such as `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const nodeArgs = [...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []), ...moreNodeArgs];
  const child = spawn(process.execPath, [...nodeArgs, fileURLToPath(new URL('../dist/src/main.js', import.meta.url))], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      CRM_SECRET_KEY: secretKey,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      BASE_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not become ready');
}

/** Resident memory of a process in bytes (Linux /proc). */
export const rssOf = (child: ChildProcess): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) * 1024;

/** User and system CPU time a process has used, in ms (Linux /proc). */
export function cpuMsOf(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
