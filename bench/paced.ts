import http from 'node:http';
import { performance } from 'node:perf_hooks';

// An open-loop load generator: request i leaves at its own time (start + i / rate) whether or not
// the ones before it were answered, and is timed from that time, so a request the generator or a
// busy server held back counts its wait. (autocannon's `overallRate` sends each connection's share
// of a second back to back at the start of the second: a burst every second, timed from when it
// left, which is not a steady rate.)

export interface Latencies {
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  /** Answers a second over the run, from the first request's time to the last answer. */
  perSecond: number;
}

/** Sends `send(i)` `rate` times a second for `seconds`, each at its time, and times each answer from then. */
export async function paced(rate: number, seconds: number, send: (i: number) => Promise<void>): Promise<Latencies> {
  const total = Math.round(rate * seconds);
  const times: number[] = [];
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(i).then(() => void times.push(performance.now() - due)));
  }
  await Promise.all(pending);
  const elapsed = performance.now() - started;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), requests: times.length, perSecond: (times.length * 1000) / elapsed };
}

/**
 * POSTs or GETs through at most `connections` kept-alive connections to one port (a request finding
 * them all busy waits for one, its wait counted); answers the status, the body read and dropped.
 */
export function httpClient(port: number, connections: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const request = (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { request, close: () => agent.destroy() };
}
