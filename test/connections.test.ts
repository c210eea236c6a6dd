import { contextOf } from '../src/domain/context.js';
import net from 'node:net';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../src/domain/staff/sessions.js';
import { createHttpServer } from '../src/http/connections.js';
import { seedApp, startTestServer, testConfig, type SeededApp, type TestServer } from './support/server.js';

// How long a client may hold a connection without sending what it must: the timeouts are short
// here (the defaults are in docs/configuration.md); a WebSocket outlives them.

let t: TestServer;
let app: SeededApp;
const timeouts = { headersMs: 600, requestMs: 900, idleMs: 700, keepAliveMs: 500 };
beforeAll(async () => {
  t = await startTestServer({ config: testConfig({ timeouts }) });
  app = await seedApp(t.svc);
});
afterAll(() => t?.close());

/** Opens a raw connection, lets `act` write to it, and says what came back and when it closed. */
function connection(act: (socket: net.Socket) => void): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(new URL(t.url).port), '127.0.0.1');
    let text = '';
    socket.on('connect', () => act(socket));
    socket.on('data', (d) => (text += d));
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
    socket.on('error', reject);
  });
}

describe('timeouts', () => {
  it('closes a connection that never sends a byte', async () => {
    const { text, closedAfterMs } = await connection(() => {});
    // Closed by whichever comes first: the idle timeout (silently) or the headers timeout (a 408).
    if (text) expect(text).toMatch(/^HTTP\/1.1 408/);
    expect(closedAfterMs).toBeLessThan(5000);
  });

  it('closes a silent connection for good at the headers timeout, even when the client never closes its side', async () => {
    // The connection layer alone, with an idle timeout far from the headers timeout, watched from the server's side.
    const server = createHttpServer({ ...timeouts, idleMs: 5000 });
    server.on('request', (_req, res) => res.end());
    const started = Date.now();
    const serverClosedAfterMs = new Promise<number>((resolve) =>
      server.on('connection', (socket) => socket.on('close', () => resolve(Date.now() - started))),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // A client that keeps its side open, reads nothing and writes nothing.
    const client = net.connect({ port: (server.address() as net.AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
    try {
      // Before, the server answered 408 at the headers timeout and then held its half open until the idle timeout.
      expect(await serverClosedAfterMs).toBeLessThan(timeouts.headersMs + 2000);
    } finally {
      client.destroy();
      server.close();
    }
  });

  it('answers a body trickled too slowly with a 408 problem document and closes', async () => {
    let timer: NodeJS.Timeout | undefined;
    const { text } = await connection((socket) => {
      socket.write(
        `PUT /server/v1/contacts/slow HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.live.server_key}\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{`,
      );
      timer = setInterval(() => socket.writable && socket.write(' '), 200);
    });
    clearInterval(timer);
    expect(text).toMatch(/^HTTP\/1.1 408/);
    expect(text).toMatch(/application\/problem\+json/);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 408, code: 'request_timeout' });
    expect(await t.svc.db.contact.count({ where: { externalId: 'slow' } })).toBe(0);
  });

  it('answers headers sent too slowly with 408', async () => {
    let timer: NodeJS.Timeout | undefined;
    const { text } = await connection((socket) => {
      socket.write('GET /healthz HTTP/1.1\r\n');
      timer = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 150);
    });
    clearInterval(timer);
    expect(text).toMatch(/^HTTP\/1.1 408/);
  });

  it('keeps an idle staff WebSocket open past the idle timeout', async () => {
    // Signed in directly: over HTTP, a sign-in slower than this server's short idle timeout would be cut.
    const { token } = await signIn(contextOf(t.svc, { kind: 'visitor', address: '127.0.0.1' }), app.ownerEmail, app.ownerPassword);
    const client = createClient({
      url: t.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: false,
    });
    const closed: unknown[] = [];
    client.on('closed', (e) => closed.push(e));
    try {
      await new Promise((r) => client.on('connected', r));
      await new Promise((r) => setTimeout(r, timeouts.idleMs * 3));
      expect(closed).toEqual([]);
      const answer = await new Promise((resolve, reject) =>
        client.subscribe({ query: '{ viewer { email } }' }, { next: resolve, error: reject, complete: () => {} }),
      );
      expect(answer).toMatchObject({ data: { viewer: { email: app.ownerEmail } } });
    } finally {
      await client.dispose();
    }
  });
});
