import type { TokenKeeper } from './token.js';
import { backoff, sleep, untilOnline } from './waiting.js';

/** How the SDK reaches the guest API: a `fetch` that carries the user's credentials and keeps the client rules. */
export interface TransportOptions {
  /** The app's public key (`app_…` or `app_test_…`). */
  appKey: string;
  /** The user's token (verified sign-in). */
  token?: TokenKeeper;
  /** The user's id, for an app with unverified sign-in (no token). */
  userId?: string;
  /** Sent as `X-Crm-Sdk` on every request. */
  sdk: string;
  /** Sent as `Accept-Language`. */
  language?: string;
  fetch?: (request: Request) => Promise<Response>;
}

/** Seconds at most that one `Retry-After` is waited for (a longer one is answered to the caller). */
const MAX_RETRY_AFTER_SECONDS = 120;
/** Answers of 429 or 503 waited through, at most, for one request. */
const MAX_WAITS = 5;
/** A request that may be sent again and is not keyed (a read) gives up after this many network failures. */
const READ_TRIES = 3;
/** A keyed send (Idempotency-Key) keeps trying this long: the service remembers a key for 24 hours. */
const KEYED_FOR_MS = 23 * 3600_000;

/**
 * The guest API's client rules, as a `fetch`:
 * - `X-CRM-App-Key`, `Authorization: Bearer` (or `X-CRM-User-Id`), `X-Crm-Sdk` and `Accept-Language` on every request;
 * - a 401 `token_expired` fetches the token again and sends once more;
 * - a 429 (or a 503, nothing done) waits for `Retry-After` and sends again;
 * - a request that cannot reach the service is sent again when it is safe to (a read, a PUT or DELETE, a send with
 *   an `Idempotency-Key`, events, which carry their own ids): after the page is back online, or after a growing pause.
 *   A keyed send keeps its key on every try, so it is kept once however often it is sent.
 */
export function guestFetch(options: TransportOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  return async (request) => {
    // The body read once and given to each try as bytes: a copied stream would make a streamed upload,
    // which a keepalive request (events sent as the page is hidden) may not carry.
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    const attemptOf = () =>
      new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body,
        signal: request.signal,
        keepalive: request.keepalive,
        // The guest API never takes cookies; the user's token travels in Authorization.
        credentials: 'omit',
        redirect: request.redirect,
      });
    const resendable = isResendable(request);
    const keyed = request.headers.has('Idempotency-Key');
    const started = Date.now();
    let renewedFrom: string | undefined;
    let waits = 0;
    let failures = 0;
    for (;;) {
      const attempt = attemptOf();
      const token = await credentials(attempt, options);
      let response: Response;
      try {
        response = await send(attempt);
      } catch (error) {
        if (request.signal.aborted || !resendable) throw error;
        failures++;
        if (!keyed && failures >= READ_TRIES) throw error;
        if (keyed && Date.now() - started > KEYED_FOR_MS) throw error;
        await untilOnline(request.signal);
        await sleep(backoff(failures), request.signal);
        continue;
      }
      if (response.status === 401 && token && renewedFrom === undefined && (await codeOf(response)) === 'token_expired') {
        renewedFrom = token;
        await response.body?.cancel();
        await options.token!.renew(token);
        continue;
      }
      const retryAfter = retryAfterOf(response);
      if (retryAfter !== undefined && waits < MAX_WAITS) {
        waits++;
        await response.body?.cancel();
        await sleep(retryAfter * 1000, request.signal);
        continue;
      }
      return response;
    }
  };
}

/** Sets the request's credentials and the SDK's headers; the token sent, if any. */
async function credentials(request: Request, options: TransportOptions): Promise<string | undefined> {
  const headers = request.headers;
  headers.set('X-CRM-App-Key', options.appKey);
  headers.set('X-Crm-Sdk', options.sdk);
  if (options.language && !headers.has('Accept-Language')) headers.set('Accept-Language', options.language);
  if (options.token) {
    const token = await options.token.get();
    headers.set('Authorization', `Bearer ${token}`);
    return token;
  }
  if (options.userId !== undefined) headers.set('X-CRM-User-Id', options.userId);
  return undefined;
}

function isResendable(request: Request): boolean {
  if (request.method !== 'POST') return true;
  if (request.headers.has('Idempotency-Key')) return true;
  return new URL(request.url).pathname.endsWith('/guest/v1/events');
}

/** The seconds to wait before sending again, for an answer that asks for it (429, or 503 with Retry-After). */
export function retryAfterOf(response: Response): number | undefined {
  if (response.status !== 429 && response.status !== 503) return undefined;
  const header = response.headers.get('Retry-After');
  if (header === null) return response.status === 429 ? 1 : undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  if (!Number.isFinite(seconds)) return 1;
  const wait = Math.max(0, seconds);
  return wait > MAX_RETRY_AFTER_SECONDS ? undefined : wait;
}

/** The problem's `code`, read from a copy (the caller still reads the answer). */
async function codeOf(response: Response): Promise<string | undefined> {
  try {
    const problem = (await response.clone().json()) as { code?: unknown };
    return typeof problem.code === 'string' ? problem.code : undefined;
  } catch {
    return undefined;
  }
}
