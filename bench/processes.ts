import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

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
