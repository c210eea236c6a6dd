import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.js';
import { drainable, type DrainBounds } from './drain.js';

// The drain on a bare HTTP server, its handlers as slow as each case needs: what is in flight is
// answered with Connection: close, a connection idle at the start still answers a request on its
// way, and what outlives the bound is cut, said once in the log.

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections();
});

/** A server whose handler waits `ms` (the query's `ms`) before answering, and its drain; the log lines it wrote. */
async function serve(bounds: DrainBounds) {
  const lines: { level: number; msg: string }[] = [];
  const log = createLogger(
    'info',
    new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  const server = http.createServer();
  servers.push(server);
  const drainer = drainable(server, log, bounds);
  let running = 0;
  server.on(
    'request',
    drainer.handle(async (req, res) => {
      running++;
      const ms = Number(new URL(req.url!, 'http://x').searchParams.get('ms') ?? 0);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      if (!res.destroyed) res.end('done');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { drainer, lines, port, running: () => running };
}

function get(port: number, agent: http.Agent, ms = 0): Promise<{ status?: number; connection?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: `/?ms=${ms}`, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
}

describe('draining an HTTP server', () => {
  it('lets a request in flight finish with Connection: close, refuses a new connection, then resolves', async () => {
    const { drainer, port, lines } = await serve({ graceMs: 5000, lingerMs: 0, settleMs: 1000 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(port, agent)).toEqual({ status: 200, connection: 'keep-alive' });
    const inFlight = get(port, agent, 300);
    await new Promise((r) => setTimeout(r, 50));
    const drained = drainer.drain();
    expect(await inFlight).toEqual({ status: 200, connection: 'close' });
    expect(await get(port, new http.Agent())).toEqual({ error: 'ECONNREFUSED' });
    await drained;
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    agent.destroy();
  });

  it('answers a request sent on a kept-alive connection idle when the drain began, within its linger', async () => {
    const { drainer, port } = await serve({ graceMs: 5000, lingerMs: 500, settleMs: 1000 });
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    const request = 'GET /?ms=0 HTTP/1.1\r\nHost: x\r\n\r\n';
    socket.write(request);
    while (!received.includes('done')) await new Promise((r) => setTimeout(r, 5));
    const drained = drainer.drain();
    // Sent a moment after the drain began, as a client does that had not heard of it yet.
    await new Promise((r) => setTimeout(r, 100));
    socket.write(request);
    await closed;
    const answers = received.split('HTTP/1.1 ').slice(1);
    expect(answers.map((a) => a.split('\r\n')[0])).toEqual(['200 OK', '200 OK']);
    expect(answers[1]).toMatch(/\r\nConnection: close\r\n/);
    await drained;
  });

  it('ends at once when nothing is open (no wait for the grace bound)', async () => {
    const { drainer, port, lines } = await serve({ graceMs: 5000, lingerMs: 200, settleMs: 1000 });
    expect(await get(port, new http.Agent({ keepAlive: false }))).toMatchObject({ status: 200 });
    await new Promise((r) => setTimeout(r, 50)); // the connection closed
    const started = Date.now();
    await drainer.drain();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  });

  it('closes an idle kept-alive connection once its linger is over', async () => {
    const { drainer, port } = await serve({ graceMs: 5000, lingerMs: 200, settleMs: 1000 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(port, agent)).toMatchObject({ status: 200 });
    const started = Date.now();
    await drainer.drain();
    expect(Date.now() - started).toBeLessThan(2000);
    agent.destroy();
  });

  it('cuts what is still busy at the bound, saying so in one line without a stack', async () => {
    const { drainer, port, lines, running } = await serve({ graceMs: 300, lingerMs: 0, settleMs: 200 });
    const slow = Array.from({ length: 3 }, () => get(port, new http.Agent({ keepAlive: true }), 3000));
    while (running() < 3) await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    await drainer.drain();
    expect(Date.now() - started).toBeLessThan(1500);
    expect((await Promise.all(slow)).map((a) => a.error)).toEqual(['ECONNRESET', 'ECONNRESET', 'ECONNRESET']);
    const warnings = lines.filter((l) => l.level >= 40);
    expect(warnings.map((l) => l.msg)).toEqual([
      'shutting down: connections still busy after 300 ms were cut',
      'shutting down: requests still running 200 ms after the cut are left behind',
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/stack/);
  });
});
