import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { H2Answer, Http2Client } from './h2.js';
import { bytesOf, DEFAULT_RETRY_MS, PayloadTooLarge, retryAfterMs, tooLarge, transportOutcome, type PushOutcome } from './outcome.js';

// Apple Push Notification service over HTTP/2 with token authentication: each request carries a
// provider token, an ES256 JWT naming the key (kid) and the team (iss) and when it was made (iat),
// signed with the team's .p8 key. APNs refuses a token older than an hour (ExpiredProviderToken)
// and a key whose token changes more often than every 20 minutes (TooManyProviderTokenUpdates),
// so one token per key is made and reused, and replaced after REUSE_MS; with a store, every server
// process uses the same one.

export interface ApnsKey {
  /** The .p8 file's text: a PKCS #8 P-256 private key. */
  privateKey: string;
  /** The key's 10-character id. */
  keyId: string;
  /** The 10-character team id. */
  teamId: string;
}

export interface ApnsCredentials extends ApnsKey {
  /** The app's bundle id: the apns-topic of every push. */
  bundleId: string;
  /** Production APNs, or the sandbox (development builds' tokens). */
  production: boolean;
}

/** The largest payload APNs takes for an alert (VoIP pushes may be 5 KB; none are sent). */
export const APNS_PAYLOAD_LIMIT = 4096;
/** A provider token is replaced this long after it was made: before APNs' hour is up. */
export const REUSE_MS = 50 * 60_000;
/** APNs refuses a new token for a key sooner than this after the last. */
export const MIN_REFRESH_MS = 20 * 60_000;

/** Why the .p8 text is not an APNs signing key, or undefined when it is. */
export function apnsKeyProblem(privateKey: string): string | undefined {
  let key: KeyObject;
  try {
    key = createPrivateKey(privateKey);
  } catch {
    return 'must be the text of the .p8 file (-----BEGIN PRIVATE KEY-----…)';
  }
  return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1'
    ? undefined
    : 'must be a P-256 (ES256) key, as APNs issues';
}

/** A provider token and when it was made (ms, its iat). */
export interface ProviderToken {
  jwt: string;
  madeAt: number;
}

/**
 * Where the tokens of every server process are kept (the service keeps them in its database), so
 * that processes, and a process started again, use one token per key rather than renewing it each.
 */
export interface ProviderTokenStore {
  load(keyName: string): Promise<ProviderToken | undefined>;
  /** Keeps `token` unless the one kept is no longer the one made at `replacing` (another process renewed first); answers the one kept. */
  save(keyName: string, token: ProviderToken, replacing: number | undefined): Promise<ProviderToken>;
}

interface Held {
  token: Promise<ProviderToken>;
  /** The token, once known. */
  known?: ProviderToken;
}

/** The provider tokens of every key in use, one per key, made when first needed and reused; shared through the store when one is given. */
export class ApnsTokens {
  private readonly held = new Map<string, Held>();
  /** Per key, the latest token APNs said had expired: an older or equal one is never used again. */
  private readonly refused = new Map<string, number>();

  constructor(private readonly store?: ProviderTokenStore) {}

  /** The key's token at `now`: the one held while younger than REUSE_MS, else the store's, else a new one. */
  async tokenFor(key: ApnsKey, now: Date): Promise<string> {
    const name = keyName(key);
    const held = this.held.get(name);
    if (held && (!held.known || this.usable(name, held.known.madeAt, now))) return (await held.token).jwt;
    const fresh: Held = { token: this.obtain(name, key, now) };
    this.held.set(name, fresh);
    try {
      fresh.known = await fresh.token;
      return fresh.known.jwt;
    } catch (err) {
      if (this.held.get(name) === fresh) this.held.delete(name);
      throw err;
    }
  }

  /**
   * APNs answered ExpiredProviderToken for `jwt`: a new token is made unless the one held is
   * younger than MIN_REFRESH_MS (then the clocks disagree and APNs would refuse a new one too).
   * Answers whether a new one will be used.
   */
  expired(key: ApnsKey, jwt: string, now: Date): boolean {
    const name = keyName(key);
    const held = this.held.get(name)?.known;
    // A push still in flight with an older token: the one held now is newer.
    if (!held || held.jwt !== jwt) return true;
    if (now.getTime() - held.madeAt < MIN_REFRESH_MS) return false;
    this.refused.set(name, Math.max(this.refused.get(name) ?? 0, held.madeAt));
    this.held.delete(name);
    return true;
  }

  private usable(name: string, madeAt: number, now: Date): boolean {
    const age = now.getTime() - madeAt;
    return age >= 0 && age < REUSE_MS && madeAt > (this.refused.get(name) ?? -Infinity);
  }

  private async obtain(name: string, key: ApnsKey, now: Date): Promise<ProviderToken> {
    const store = this.store;
    const stored = store && (await this.kept(() => store.load(name)));
    if (stored && this.usable(name, stored.madeAt, now)) return stored;
    const iat = Math.floor(now.getTime() / 1000);
    const jwt = await new SignJWT({ iss: key.teamId, iat })
      .setProtectedHeader({ alg: 'ES256', kid: key.keyId })
      .sign(createPrivateKey(key.privateKey));
    const made = { jwt, madeAt: iat * 1000 };
    return store ? this.kept(() => store.save(name, made, stored?.madeAt)) : made;
  }

  /** A call of the store: its failure is the store's (the database away), not the key's. */
  private async kept<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw new TokenStoreUnavailable((err as Error).message, { cause: err });
    }
  }
}

/** The store of shared provider tokens could not be read or written: the push is not sent now, and nothing says the key is bad. */
export class TokenStoreUnavailable extends Error {}

/** One key's name in the cache: its ids and a hash of the key itself, so a replaced key gets a token of its own. */
export const keyName = (key: ApnsKey) =>
  `${key.teamId}.${key.keyId}.${createHash('sha256').update(key.privateKey).digest('hex').slice(0, 16)}`;

export interface ApnsPush {
  /** The device token (hex). */
  deviceToken: string;
  /** The JSON payload: an object with an `aps` dictionary. */
  payload: string;
  /** When APNs may stop trying to deliver (seconds since the epoch); 0: once, now. */
  expiration?: number;
  /** 10: at once (alerts); 5: when the device sees fit. */
  priority?: 10 | 5;
}

/** Sends one alert push to one device; `baseUrl` is APNs' address for the credentials' environment. */
export async function sendApns(
  client: Http2Client,
  tokens: ApnsTokens,
  creds: ApnsCredentials,
  baseUrl: string,
  push: ApnsPush,
  now: Date,
): Promise<PushOutcome> {
  const bytes = bytesOf(push.payload);
  if (bytes > APNS_PAYLOAD_LIMIT) return tooLarge(new PayloadTooLarge('APNs', bytes, APNS_PAYLOAD_LIMIT));
  let jwt: string;
  try {
    jwt = await tokens.tokenFor(creds, now);
  } catch (err) {
    if (err instanceof TokenStoreUnavailable)
      return {
        kind: 'retry',
        reason: `not sent: the provider token could not be read: ${err.message}`,
        afterMs: DEFAULT_RETRY_MS,
        provider: false,
      };
    return { kind: 'failed', reason: `the APNs key cannot sign: ${(err as Error).message}`, systemic: true };
  }
  const headers: Record<string, string> = {
    authorization: `bearer ${jwt}`,
    'apns-topic': creds.bundleId,
    'apns-push-type': 'alert',
    'apns-priority': String(push.priority ?? 10),
    'content-type': 'application/json',
    ...(push.expiration !== undefined ? { 'apns-expiration': String(push.expiration) } : {}),
  };
  const answer = await client.request(`${baseUrl}/3/device/${encodeURIComponent(push.deviceToken)}`, headers, push.payload);
  if ('failure' in answer) return transportOutcome(answer);
  return apnsOutcome(answer, now, () => tokens.expired(creds, jwt, now));
}

/** What an APNs answer means (reasons from Apple's "Handling notification responses from APNs"). */
function apnsOutcome(answer: H2Answer, now: Date, tokenExpired: () => boolean): PushOutcome {
  const id = typeof answer.headers['apns-id'] === 'string' ? answer.headers['apns-id'] : undefined;
  if (answer.status === 200) return { kind: 'sent', ...(id ? { id } : {}) };
  let body: { reason?: unknown; timestamp?: unknown } = {};
  try {
    body = JSON.parse(answer.body) as typeof body;
  } catch {
    // An answer without a JSON body: the status alone says what happened.
  }
  const reason = typeof body.reason === 'string' ? body.reason : `status ${answer.status}`;
  const said = `APNs ${answer.status} ${reason}`;
  if (answer.status === 410) {
    const since = typeof body.timestamp === 'number' ? new Date(body.timestamp) : undefined;
    return { kind: 'gone', reason: said, ...(since && !Number.isNaN(since.getTime()) ? { since } : {}) };
  }
  if (reason === 'BadDeviceToken' || reason === 'Unregistered') return { kind: 'gone', reason: said };
  if (reason === 'ExpiredProviderToken')
    return tokenExpired()
      ? { kind: 'retry', reason: said, afterMs: 0, provider: true }
      : { kind: 'failed', reason: `${said}: the token is younger than 20 minutes (is this server's clock right?)`, systemic: true };
  if (answer.status === 429 && reason === 'TooManyRequests')
    return { kind: 'retry', reason: said, afterMs: retryAfterMs(answer.headers['retry-after'], now), provider: false };
  if (answer.status === 429 || answer.status === 500 || answer.status === 503)
    return { kind: 'retry', reason: said, afterMs: retryAfterMs(answer.headers['retry-after'], now), provider: true };
  const systemic =
    answer.status === 403 ||
    ['TopicDisallowed', 'BadTopic', 'MissingTopic', 'BadCertificate', 'BadCertificateEnvironment'].includes(reason);
  return { kind: 'failed', reason: said, ...(systemic ? { systemic } : {}) };
}
