import { validateHeaderName, validateHeaderValue } from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { refusalReason } from './address.js';
import { fixedLookup, systemResolver, type Resolver } from './resolve.js';
import { kindOfError, type FailureKind, type PostResult } from './result.js';
import { parseTarget, type Target } from './target.js';
import { trustFor, type TestTrust } from './test-trust.js';

// One POST to a customer's server: the URL checked, the host looked up once and every address
// checked, the connection made to those addresses only, no redirect followed, one time limit over
// lookup, connect, TLS, sending and the response headers. At most a few KiB of the answer's body
// is read, then dropped.

/** Lookup + connect + TLS + request + response headers. */
export const OUTBOUND_TIMEOUT_MS = 10_000;
/** The most of a response body read before the connection is closed; none of it is kept. */
export const RESPONSE_READ_BYTES = 4096;

export interface PostOptions {
  /** The whole time limit (default 10 s). */
  timeoutMs?: number;
  /** How host names are looked up (default: the system's, A and AAAA). Its answers are checked like any. */
  resolve?: Resolver;
  /** Tests only: exact targets allowed to be private, with the CA that signed their certificate. */
  testTrust?: TestTrust;
}

/** Set here, not by callers. */
const RESERVED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
]);

/**
 * POST `body` with `headers` (and Content-Length) to `url`. Resolves with the status or a failure,
 * never rejects for anything the network or the receiver does; throws only for a caller's mistake
 * (a header that is not valid HTTP, or one this client sets itself).
 */
export async function postOutbound(
  url: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  opts: PostOptions = {},
): Promise<PostResult> {
  for (const [name, value] of Object.entries(headers)) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    if (RESERVED.has(name.toLowerCase())) throw new TypeError(`outbound posts set ${name} themselves`);
  }
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (failure: FailureKind, detail: string, status?: number): PostResult => ({
    failure,
    detail,
    ms: elapsed(),
    ...(status === undefined ? {} : { status }),
  });
  const limit = opts.timeoutMs ?? OUTBOUND_TIMEOUT_MS;

  const target = parseTarget(url);
  if ('refused' in target) return fail('refused_url', target.refused);
  const trust = trustFor(opts.testTrust, target);

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), limit);
  try {
    let addresses: string[];
    if (target.literal) addresses = [target.host];
    else {
      try {
        addresses = await beforeDeadline((opts.resolve ?? systemResolver)(target.host), deadline.signal);
      } catch (err) {
        if (deadline.signal.aborted) return fail('timeout', `no address for ${target.host} within ${limit} ms`);
        return fail('dns', `${target.host}: ${(err as { code?: string }).code ?? (err as Error).message}`);
      }
      if (!addresses.length) return fail('dns', `${target.host}: no address`);
    }
    if (!trust) {
      for (const address of addresses) {
        const why = refusalReason(address);
        if (why) return fail('refused_address', target.literal ? `${address} is ${why}` : `${target.host} resolves to ${address} (${why})`);
      }
    }
    return await send(target, addresses, body, headers, trust, deadline.signal, limit, elapsed, fail);
  } finally {
    clearTimeout(timer);
  }
}

function send(
  target: Target,
  addresses: string[],
  body: string,
  headers: Readonly<Record<string, string>>,
  trust: TestTrust | undefined,
  deadline: AbortSignal,
  limit: number,
  elapsed: () => number,
  fail: (failure: FailureKind, detail: string, status?: number) => PostResult,
): Promise<PostResult> {
  return new Promise<PostResult>((resolve) => {
    let answer: PostResult | undefined;
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', onDeadline);
      req.destroy();
      resolve(result);
    };
    const onDeadline = () => finish(answer ?? fail('timeout', `no answer within ${limit} ms`));
    const req = https.request({
      host: target.host,
      port: target.port,
      path: target.path,
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      // A fresh connection each time: nothing pooled under another check or another trust.
      agent: false,
      lookup: fixedLookup(target.host, addresses),
      ...(trust ? { ca: trust.ca } : {}),
    });
    deadline.addEventListener('abort', onDeadline, { once: true });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      answer =
        status >= 300 && status < 400
          ? fail('redirect', `answered ${status}; redirects are not followed`, status)
          : answered(status, elapsed(), res.headers['retry-after']);
      const done = () => {
        res.destroy();
        finish(answer!);
      };
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= RESPONSE_READ_BYTES) done();
      });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    req.on('error', (err) => {
      if (answer) return finish(answer);
      const { failure, detail } = kindOfError(err);
      finish(fail(failure, detail));
    });
    req.end(body);
  });
}

/** `promise`, or a rejection when the deadline passes first (a lookup cannot be cancelled). */
function beforeDeadline<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (err) => (signal.removeEventListener('abort', onAbort), reject(err)),
    );
  });
}

/** An answer, with its Retry-After (seconds, or a date) read as a wait in ms when it gives one. */
function answered(status: number, ms: number, retryAfter: string | undefined): PostResult {
  const wait = retryAfterMs(retryAfter, Date.now());
  return wait === undefined ? { status, ms } : { status, ms, retryAfterMs: wait };
}

/** A Retry-After header as a wait in ms from `now`: whole seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
