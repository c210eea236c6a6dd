import { createECDH } from 'node:crypto';
import https from 'node:https';
import webpush from 'web-push';
import { fixedLookup } from '../outbound/resolve.js';
import { kindOfError } from '../outbound/result.js';
import { checkTarget, tlsOptionsOf, type PushTransportOptions } from './connect.js';
import { bytesOf, DEFAULT_RETRY_MS, PayloadTooLarge, retryAfterMs, tooLarge, type PushOutcome } from './outcome.js';

// Web Push (RFC 8030) with VAPID (RFC 8292), the payload encrypted for the browser's subscription
// (RFC 8291, aes128gcm), both by the `web-push` package. The post itself goes out here: the
// endpoint is an address a browser handed in, so it is checked as any outbound post is (public
// addresses only, unless the test setting names it), and connections to a push service are kept.

export interface VapidKeys {
  /** The P-256 public key, base64url (65 bytes uncompressed): browsers subscribe with it (applicationServerKey). */
  publicKey: string;
  /** The private key, base64url (32 bytes). */
  privateKey: string;
  /** How the push service may reach the sender: a mailto: address or an https URL. */
  subject: string;
}

export interface WebSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * The largest payload a push service takes: its 4,096-byte record less what aes128gcm adds
 * (an 86-byte header with the salt and the sender's key, a padding delimiter, a 16-byte tag).
 */
export const WEB_PUSH_PAYLOAD_LIMIT = 4096 - 86 - 1 - 16;
/** How long a push service keeps a push for a browser that is offline (seconds). */
export const WEB_PUSH_TTL_S = 24 * 3600;
const TIMEOUT_MS = 10_000;

/** A new VAPID key pair. */
export const newVapidKeys = (): Pick<VapidKeys, 'publicKey' | 'privateKey'> => webpush.generateVAPIDKeys();

/** Problems of VAPID keys, by member (publicKey, privateKey, subject). */
export function vapidProblems(keys: VapidKeys): { member: keyof VapidKeys; message: string }[] {
  const problems: { member: keyof VapidKeys; message: string }[] = [];
  const pub = /^[A-Za-z0-9_-]+$/.test(keys.publicKey) ? Buffer.from(keys.publicKey, 'base64url') : Buffer.alloc(0);
  const priv = /^[A-Za-z0-9_-]+$/.test(keys.privateKey) ? Buffer.from(keys.privateKey, 'base64url') : Buffer.alloc(0);
  if (pub.length !== 65 || pub[0] !== 4)
    problems.push({ member: 'publicKey', message: 'must be an uncompressed P-256 public key, base64url (65 bytes)' });
  if (priv.length !== 32) problems.push({ member: 'privateKey', message: 'must be a P-256 private key, base64url (32 bytes)' });
  else if (pub.length === 65) {
    const ecdh = createECDH('prime256v1');
    try {
      ecdh.setPrivateKey(priv);
      if (!ecdh.getPublicKey().equals(pub)) problems.push({ member: 'privateKey', message: 'is not the private key of publicKey' });
    } catch {
      problems.push({ member: 'privateKey', message: 'is not a P-256 private key' });
    }
  }
  const subject = URL.canParse(keys.subject) ? new URL(keys.subject) : undefined;
  if (!subject || !(subject.protocol === 'mailto:' || subject.protocol === 'https:'))
    problems.push({ member: 'subject', message: 'must be a mailto: address or an https URL where the push service can reach you' });
  return problems;
}

/** A device token of the web platform read as a subscription (the browser's PushSubscription as JSON), or undefined. */
export function readSubscription(token: string): WebSubscription | undefined {
  try {
    const s = JSON.parse(token) as Partial<WebSubscription>;
    if (typeof s.endpoint === 'string' && typeof s.keys?.p256dh === 'string' && typeof s.keys.auth === 'string')
      return { endpoint: s.endpoint, keys: { p256dh: s.keys.p256dh, auth: s.keys.auth } };
  } catch {
    // Not JSON: no subscription.
  }
  return undefined;
}

export class WebPushClient {
  /** Kept connections per push service origin (and the test trust that applies to it). */
  private readonly agents = new Map<string, https.Agent>();

  constructor(private readonly opts: PushTransportOptions & { timeoutMs?: number } = {}) {}

  /** Encrypts `payload` for the subscription, signs with the VAPID keys, and posts it to the subscription's endpoint. */
  async send(
    subscription: WebSubscription,
    payload: string,
    vapid: VapidKeys,
    now: Date,
    ttlSeconds = WEB_PUSH_TTL_S,
  ): Promise<PushOutcome> {
    const bytes = bytesOf(payload);
    if (bytes > WEB_PUSH_PAYLOAD_LIMIT) return tooLarge(new PayloadTooLarge('Web Push', bytes, WEB_PUSH_PAYLOAD_LIMIT));
    let details: webpush.RequestDetails;
    try {
      details = webpush.generateRequestDetails(subscription, payload, {
        vapidDetails: vapid,
        TTL: ttlSeconds,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
      });
    } catch (err) {
      return { kind: 'failed', reason: `the subscription cannot be sent to: ${(err as Error).message}` };
    }
    const checked = await checkTarget(subscription.endpoint, this.opts);
    // The browser's endpoint, not the settings: only this subscription is refused.
    if ('refused' in checked) return { kind: 'failed', reason: `endpoint refused: ${checked.refused}` };
    const answer = await this.post(checked, details);
    if ('failure' in answer) {
      if (answer.failure === 'tls') return { kind: 'failed', reason: `tls: ${answer.detail}` };
      return { kind: 'retry', reason: `${answer.failure}: ${answer.detail}`, afterMs: DEFAULT_RETRY_MS, provider: true };
    }
    const said = `push service ${answer.status}`;
    if (answer.status >= 200 && answer.status < 300) return { kind: 'sent', ...(answer.location ? { id: answer.location } : {}) };
    if (answer.status === 404 || answer.status === 410) return { kind: 'gone', reason: said };
    if (answer.status === 429 || answer.status >= 500)
      return { kind: 'retry', reason: said, afterMs: retryAfterMs(answer.retryAfter, now), provider: true };
    // 400 malformed, 401/403 VAPID refused (the subscription was made with another key), 413 too large.
    return { kind: 'failed', reason: said };
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private agentFor(checked: Exclude<Awaited<ReturnType<typeof checkTarget>>, { refused: string }>): https.Agent {
    const key = `${checked.target.host}:${checked.target.port}:${checked.trust ? 'test' : ''}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new https.Agent({ keepAlive: true, maxSockets: 32, ...(checked.trust ? { ca: checked.trust.ca } : {}) });
      this.agents.set(key, agent);
    }
    return agent;
  }

  private post(checked: Exclude<Awaited<ReturnType<typeof checkTarget>>, { refused: string }>, details: webpush.RequestDetails) {
    const { target } = checked;
    const tlsOptions = tlsOptionsOf(checked);
    return new Promise<{ status: number; retryAfter?: string; location?: string } | { failure: string; detail: string }>((resolve) => {
      const body = details.body ?? Buffer.alloc(0);
      const req = https.request({
        host: target.host,
        port: target.port,
        path: target.path,
        method: 'POST',
        headers: { ...(details.headers as Record<string, string | number>), 'Content-Length': body.length },
        agent: this.agentFor(checked),
        lookup: fixedLookup(target.host, checked.addresses),
        ...(tlsOptions.servername ? { servername: tlsOptions.servername } : {}),
        timeout: this.opts.timeoutMs ?? TIMEOUT_MS,
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const retryAfter = res.headers['retry-after'];
        const location = res.headers.location;
        res.resume();
        res.on('end', () => resolve({ status, ...(retryAfter ? { retryAfter } : {}), ...(location ? { location } : {}) }));
        res.on('error', () => resolve({ status }));
      });
      req.on('timeout', () =>
        req.destroy(Object.assign(new Error(`no answer within ${this.opts.timeoutMs ?? TIMEOUT_MS} ms`), { code: 'ETIMEDOUT' })),
      );
      req.on('error', (err) =>
        resolve({
          failure: (err as { code?: string }).code === 'ETIMEDOUT' ? 'timeout' : kindOfError(err).failure,
          detail: kindOfError(err).detail,
        }),
      );
      req.end(body);
    });
  }
}
