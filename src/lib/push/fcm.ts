import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import type { H2Answer, Http2Client } from './h2.js';
import { bytesOf, PayloadTooLarge, retryAfterMs, tooLarge, transportOutcome, type PushOutcome } from './outcome.js';

// Firebase Cloud Messaging, HTTP v1. The project's service account signs an assertion (an RS256
// JWT: iss the account's email, scope firebase.messaging, aud the token endpoint, an hour's life),
// which the OAuth token endpoint exchanges for an access token; that token is kept and used for
// every send until shortly before it expires, and fetched once however many sends wait for it.

export interface ServiceAccount {
  projectId: string;
  clientEmail: string;
  /** PEM of the account's RSA private key. */
  privateKey: string;
  privateKeyId: string;
}

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** FCM's limit on a message's payload (notification and data). */
export const FCM_PAYLOAD_LIMIT = 4096;
/** An access token is fetched again this long before it expires. */
export const REFRESH_BEFORE_MS = 5 * 60_000;
/** The assertion's life: Google takes at most an hour. */
const ASSERTION_S = 3600;

/** The service account JSON file (as Firebase's console downloads it), or why it is not one. */
export function readServiceAccount(json: string): ServiceAccount | { problem: string } {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return { problem: 'must be the service account JSON file as downloaded from the Firebase console' };
  }
  if (typeof v !== 'object' || v === null || v.type !== 'service_account')
    return { problem: 'must be a service account JSON file ("type": "service_account")' };
  for (const member of ['project_id', 'client_email', 'private_key', 'private_key_id'] as const) {
    if (typeof v[member] !== 'string' || !(v[member] as string).trim()) return { problem: `has no ${member}` };
  }
  try {
    const key = createPrivateKey(v.private_key as string);
    if (key.asymmetricKeyType !== 'rsa') return { problem: 'its private_key must be an RSA key' };
  } catch {
    return { problem: 'its private_key is not a readable PEM private key' };
  }
  return {
    projectId: v.project_id as string,
    clientEmail: v.client_email as string,
    privateKey: v.private_key as string,
    privateKeyId: v.private_key_id as string,
  };
}

interface Held {
  token: Promise<string>;
  /** When it is to be fetched again (ms); unknown until it came. */
  renewAt: number;
}

export class FcmTokens {
  private readonly held = new Map<string, Held>();

  /** The account's access token at `now`, fetched when none is held or it is about to expire. Rejects with the exchange's failure. */
  accessToken(client: Http2Client, account: ServiceAccount, tokenUrl: string, now: Date): Promise<string> {
    const id = `${account.clientEmail}.${account.privateKeyId}`;
    const held = this.held.get(id);
    if (held && now.getTime() < held.renewAt) return held.token;
    const fresh: Held = { token: Promise.resolve(''), renewAt: Infinity };
    fresh.token = exchange(client, account, tokenUrl, now).then(
      ({ token, expiresInS }) => {
        fresh.renewAt = now.getTime() + expiresInS * 1000 - REFRESH_BEFORE_MS;
        return token;
      },
      (err: unknown) => {
        if (this.held.get(id) === fresh) this.held.delete(id);
        throw err;
      },
    );
    this.held.set(id, fresh);
    return fresh.token;
  }

  /** FCM refused the token (401): the next send fetches a new one. */
  refused(account: ServiceAccount): void {
    this.held.delete(`${account.clientEmail}.${account.privateKeyId}`);
  }
}

/** Why an exchange gave no token: `systemic` when the account itself was refused. */
export class TokenExchangeFailed extends Error {
  constructor(
    message: string,
    readonly outcome: PushOutcome,
  ) {
    super(message);
  }
}

async function exchange(
  client: Http2Client,
  account: ServiceAccount,
  tokenUrl: string,
  now: Date,
): Promise<{ token: string; expiresInS: number }> {
  const iat = Math.floor(now.getTime() / 1000);
  const assertion = await new SignJWT({ iss: account.clientEmail, scope: FCM_SCOPE, aud: tokenUrl, iat, exp: iat + ASSERTION_S })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: account.privateKeyId })
    .sign(createPrivateKey(account.privateKey));
  const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
  const answer = await client.request(tokenUrl, { 'content-type': 'application/x-www-form-urlencoded' }, body);
  if ('failure' in answer) throw new TokenExchangeFailed(answer.detail, transportOutcome(answer));
  let v: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    v = JSON.parse(answer.body) as typeof v;
  } catch {
    // Judged by the status below.
  }
  if (answer.status === 200 && typeof v.access_token === 'string' && v.access_token) {
    return { token: v.access_token, expiresInS: typeof v.expires_in === 'number' && v.expires_in > 0 ? v.expires_in : 3600 };
  }
  const said =
    `token endpoint ${answer.status} ${typeof v.error === 'string' ? v.error : ''}${typeof v.error_description === 'string' ? `: ${v.error_description}` : ''}`.trim();
  const outcome: PushOutcome =
    answer.status === 429 || answer.status >= 500
      ? { kind: 'retry', reason: said, afterMs: retryAfterMs(answer.headers['retry-after'], now), provider: true }
      : { kind: 'failed', reason: `the service account was refused: ${said}`, systemic: true };
  throw new TokenExchangeFailed(said, outcome);
}

/** What a push shows, and the data the app reads from it (string values only, as FCM requires). */
export interface FcmContent {
  notification: { title: string; body?: string };
  data?: Record<string, string>;
}

/** The message's payload as FCM counts it (without the token); refused above FCM_PAYLOAD_LIMIT. */
export function fcmPayloadSize(content: FcmContent): number {
  return bytesOf(JSON.stringify({ notification: content.notification, data: content.data ?? {} }));
}

/** Sends one message to one registration token. */
export async function sendFcm(
  client: Http2Client,
  tokens: FcmTokens,
  account: ServiceAccount,
  urls: { fcmUrl: string; tokenUrl: string },
  registrationToken: string,
  content: FcmContent,
  now: Date,
): Promise<PushOutcome> {
  const bytes = fcmPayloadSize(content);
  if (bytes > FCM_PAYLOAD_LIMIT) return tooLarge(new PayloadTooLarge('FCM', bytes, FCM_PAYLOAD_LIMIT));
  let accessToken: string;
  try {
    accessToken = await tokens.accessToken(client, account, urls.tokenUrl, now);
  } catch (err) {
    if (err instanceof TokenExchangeFailed) return err.outcome;
    return { kind: 'failed', reason: `the service account cannot sign: ${(err as Error).message}`, systemic: true };
  }
  const message = {
    message: {
      token: registrationToken,
      notification: content.notification,
      ...(content.data ? { data: content.data } : {}),
      android: { priority: 'high' },
    },
  };
  const answer = await client.request(
    `${urls.fcmUrl}/v1/projects/${encodeURIComponent(account.projectId)}/messages:send`,
    { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    JSON.stringify(message),
  );
  if ('failure' in answer) return transportOutcome(answer);
  if (answer.status === 401) tokens.refused(account);
  return fcmOutcome(answer, now);
}

/** What an FCM answer means (FCM's ErrorCode reference). */
function fcmOutcome(answer: H2Answer, now: Date): PushOutcome {
  let v: { name?: unknown; error?: { status?: unknown; message?: unknown; details?: { errorCode?: unknown }[] } } = {};
  try {
    v = JSON.parse(answer.body) as typeof v;
  } catch {
    // Judged by the status below.
  }
  if (answer.status === 200) return { kind: 'sent', ...(typeof v.name === 'string' ? { id: v.name } : {}) };
  const code = v.error?.details?.find((d) => typeof d?.errorCode === 'string')?.errorCode as string | undefined;
  const status = typeof v.error?.status === 'string' ? v.error.status : undefined;
  const said = `FCM ${answer.status} ${code ?? status ?? ''}`.trim();
  if (code === 'UNREGISTERED' || answer.status === 404) return { kind: 'gone', reason: said };
  if (answer.status === 401) return { kind: 'retry', reason: said, afterMs: 0, provider: true };
  if (
    answer.status === 429 ||
    answer.status === 500 ||
    answer.status === 503 ||
    code === 'QUOTA_EXCEEDED' ||
    code === 'UNAVAILABLE' ||
    code === 'INTERNAL'
  )
    return { kind: 'retry', reason: said, afterMs: retryAfterMs(answer.headers['retry-after'], now), provider: true };
  // SENDER_ID_MISMATCH is the token's own (made for another project); any other 403 is the account's.
  const systemic = code === 'THIRD_PARTY_AUTH_ERROR' || (answer.status === 403 && code !== 'SENDER_ID_MISMATCH');
  return { kind: 'failed', reason: said, ...(systemic ? { systemic } : {}) };
}
