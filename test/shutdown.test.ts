import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openServices } from '../src/services.js';
import { createTestDatabase } from './support/db.js';
import { userToken } from './support/http.js';
import { freePorts, launch, ready, stopProcess, type Proc } from './support/processes.js';
import { seedApp, TEST_SECRET_KEY, testConfig, type SeededApp } from './support/server.js';

// SIGTERM to a real server process while ten keep-alive clients send requests one after another:
// every request it took is answered in full (never a 500, never a connection cut mid-answer), each
// kept-alive connection's next answer says Connection: close, a new connection is refused, and the
// process exits 0 having logged no stack trace.

const CLIENTS = 10;
let proc: Proc | undefined;
let app: SeededApp;

beforeAll(async () => {
  const dbUrl = await createTestDatabase();
  const svc = await openServices({ config: testConfig(), url: dbUrl, secretKey: TEST_SECRET_KEY });
  try {
    app = await seedApp(svc);
  } finally {
    await svc.close();
  }
  const [port] = await freePorts(1);
  proc = launch(dbUrl, port!, { LOG_LEVEL: 'info', RATE_GUEST_ADDRESS_PER_MINUTE: '1000000' });
  await ready(proc);
});
afterAll(() => stopProcess(proc, 'SIGKILL'));

interface Answer {
  status?: number;
  connection?: string;
  /** The client's error: a refused connection, or a connection cut before the answer was whole. */
  error?: string;
}

/** One request on the client's kept-alive connection, read to its end. */
function send(agent: http.Agent, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request(`${proc!.url}${path}`, { method, agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(body);
  });
}

it('answers what it took, closes each kept-alive connection with its next answer, and exits 0 without a stack trace', async () => {
  const guest = {
    'X-CRM-App-Key': app.live.app_key,
    Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub: 'sigterm' })}`,
  };
  const server = { Authorization: `Bearer ${app.live.server_key}`, 'Content-Type': 'application/json' };
  const requests = [
    () => ['GET', '/healthz', {}] as const,
    () => ['GET', '/guest/v1/consent', guest] as const,
    (n: number) => ['PUT', `/server/v1/contacts/sigterm-${n % 20}`, server, JSON.stringify({ display_name: `Round ${n}` })] as const,
  ];
  const sent: number[] = Array.from({ length: CLIENTS }, () => 0);
  const client = async (i: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const answers: Answer[] = [];
    try {
      for (let n = 0; ; n++) {
        const [method, path, headers, body] = requests[(i + n) % requests.length]!(n);
        const answer = await send(agent, method, path, headers, body);
        answers.push(answer);
        sent[i]!++;
        // After the server's last answer a new connection is refused: the client is done.
        if (answer.error) break;
      }
    } finally {
      agent.destroy();
    }
    return answers;
  };
  const running = Array.from({ length: CLIENTS }, (_, i) => client(i));
  // Every client is under way before the signal.
  while (sent.some((n) => n < 5)) await new Promise((r) => setTimeout(r, 20));
  const exited = new Promise<number | null>((resolve) => proc!.child.once('exit', (code) => resolve(code)));
  proc!.child.kill('SIGTERM');
  const all = await Promise.all(running);
  const code = await exited;
  const output = proc!.output.join('');
  // What a failure shows: each client's answers in order, and what the server said besides its request lines.
  const seen =
    JSON.stringify(all) +
    '\n' +
    output
      .split('\n')
      .filter((line) => !line.includes('"msg":"request"'))
      .join('\n');
  expect(code, seen).toBe(0);
  for (const answers of all) {
    const statuses = answers.filter((a) => a.status !== undefined).map((a) => a.status!);
    expect(
      statuses.filter((s) => s >= 500),
      seen,
    ).toEqual([]);
    // The connection's last answer said it closes; then the client's next connection was refused.
    const last = answers.length - 1 - [...answers].reverse().findIndex((a) => a.status !== undefined);
    expect(answers[last]!.connection, seen).toBe('close');
    expect(
      answers.slice(last + 1).map((a) => a.error),
      seen,
    ).toEqual(['ECONNREFUSED']);
    expect(answers.filter((a) => a.error && a.error !== 'ECONNREFUSED')).toEqual([]);
  }
  expect(output).not.toMatch(/\n\s+at \S.*:\d+:\d+/);
  expect(output).not.toMatch(/"stack":/);
  expect(output).not.toMatch(/Cannot use a pool/);
  // The shutdown says what it did once, each thing in one line: nothing repeated per request or connection.
  const said = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; level: number })
    .filter((line) => line.msg !== 'request');
  const afterSignal = said.slice(said.findIndex((line) => line.msg === 'shutting down'));
  expect(afterSignal.map((line) => line.msg)).toEqual([...new Set(afterSignal.map((line) => line.msg))]);
  expect(afterSignal.filter((line) => line.level >= 40)).toEqual([]);
  expect(afterSignal.at(-1)!.msg).toBe('stopped');
});
