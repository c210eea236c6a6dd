import {
  createECDH,
  createPublicKey,
  createDecipheriv,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  randomUUID,
  type KeyObject,
} from 'node:crypto';
import http2, { type Http2SecureServer, type ServerHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import type { TestCertificate } from './https-receiver.js';
import { exec, sql } from '../../src/db/sql.js';
import { sealToken, tokenHashOf } from '../../src/domain/devices/tokens.js';
import type { Services } from '../../src/domain/services.js';

// Local stand-ins for the push providers, started by a test with a certificate made for it. Each
// checks what the real provider checks and refuses as it does, so a test passes only when the
// service speaks the real protocol:
// - APNs (HTTP/2): the provider token (ES256, kid, iss = team id, iat under an hour old, the
//   signature against the key's public part, not renewed more often than every 20 minutes),
//   apns-topic, apns-push-type, and the payload's shape and size;
// - FCM (HTTP/2): the token endpoint checks the service account's RS256 assertion (signature, kid,
//   iss, scope, audience, life) and issues access tokens; the send endpoint checks the bearer token,
//   the project and the message's shape and size;
// - Web Push (HTTPS): the VAPID Authorization (ES256 over aud/exp/sub, verified with its k) and the
//   encrypted body's headers, then decrypts the body with the subscription's own keys (RFC 8291).
// Each can be told to answer a token "gone", or 429 with Retry-After (a number of times); APNs can
// also hold its answer for a while (a push in flight when a server stops).

/** `hold`: the answer waits this many ms, or until the promise settles (a test lets it go when it is done with it). */
export type Trick = { gone: true } | { throttle: number; times?: number; status?: 429 | 503 } | { hold: number | Promise<unknown> };

/** The answers a test asks for, per device token. */
class Tricks {
  private readonly byToken = new Map<string, Trick>();
  set(token: string, trick: Trick) {
    this.byToken.set(token, trick);
  }
  /** The trick for this token now (a throttle counts down). */
  take(token: string): Trick | undefined {
    const trick = this.byToken.get(token);
    if (trick && 'throttle' in trick && trick.times !== undefined && --trick.times <= 0) this.byToken.delete(token);
    return trick;
  }
}

interface H2Request {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An HTTP/2 TLS server on 127.0.0.1 whose handler answers [status, headers, body]. */
async function startH2(
  cert: TestCertificate,
  handler: (req: H2Request) => Promise<[number, Record<string, string>, string]> | [number, Record<string, string>, string],
) {
  const server: Http2SecureServer = http2.createSecureServer({ cert: cert.cert, key: cert.key, settings: { maxConcurrentStreams: 1000 } });
  const sessions = new Set<http2.ServerHttp2Session>();
  let connections = 0;
  server.on('session', (s) => {
    connections++;
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  server.on('stream', (stream: ServerHttp2Stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', async () => {
      const [status, extra, body] = await handler({ headers, body: Buffer.concat(chunks) });
      if (stream.closed) return;
      stream.respond({ ':status': status, 'content-type': 'application/json', ...extra });
      stream.end(body);
    });
    stream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `https://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    /** TLS connections accepted: APNs wants one kept, not one per push. */
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sessions) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const json = (v: unknown) => JSON.stringify(v);
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The signature of a compact JWS against `key`, or false. */
async function verifies(jwt: string, key: KeyObject, alg: string): Promise<boolean> {
  try {
    await compactVerify(jwt, key, { algorithms: [alg] });
    return true;
  } catch {
    return false;
  }
}

// ---- APNs ----

export interface ApnsKeyPair {
  /** The .p8 text (PKCS #8 PEM), as Apple hands it out. */
  p8: string;
  publicKey: KeyObject;
  keyId: string;
  teamId: string;
}

/** A new APNs signing key, as if made in Apple's developer account. */
export function makeApnsKey(keyId = 'ABC123DEFG', teamId = 'TEAM123456'): ApnsKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { p8: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey, keyId, teamId };
}

export interface ApnsReceived {
  token: string;
  headers: IncomingHttpHeaders;
  payload: { aps: { alert: { title: string; body?: string } }; [k: string]: unknown };
  /** The provider token it carried. */
  jwt: string;
}

/** `keep: false` keeps only how many pushes each token got (a benchmark's hundred thousand). */
export async function startApnsStandin(
  cert: TestCertificate,
  opts: { key: ApnsKeyPair; bundleId: string; now?: () => Date; keep?: boolean },
) {
  const now = opts.now ?? (() => new Date());
  const tricks = new Tricks();
  const received: ApnsReceived[] = [];
  /** Pushes taken, per device token. */
  const counts = new Map<string, number>();
  /** Provider tokens whose signature was checked: as APNs does, a token is verified once, not at every push. */
  const verified = new Set<string>();
  /** Device tokens of every push that passed the checks, as it arrived (before a held answer). */
  const arrived: string[] = [];
  const refused: { status: number; reason: string }[] = [];
  /** Each new provider token seen, with its iat: APNs refuses a renewal sooner than 20 minutes. */
  const tokens: { jwt: string; iat: number }[] = [];
  const no = (status: number, reason: string, extra: Record<string, unknown> = {}): [number, Record<string, string>, string] => {
    refused.push({ status, reason });
    return [status, { 'apns-id': randomUUID() }, json({ reason, ...extra })];
  };
  const server = await startH2(cert, async ({ headers, body }) => {
    if (headers[':method'] !== 'POST') return no(405, 'MethodNotAllowed');
    const m = /^\/3\/device\/([0-9a-fA-F]+)$/.exec(String(headers[':path']));
    if (!m) return no(404, 'BadPath');
    const token = m[1]!;
    const auth = /^bearer (\S+)$/.exec(String(headers.authorization ?? ''));
    if (!auth) return no(403, 'MissingProviderToken');
    const jwt = auth[1]!;
    let header: ReturnType<typeof decodeProtectedHeader>;
    let claims: ReturnType<typeof decodeJwt>;
    try {
      header = decodeProtectedHeader(jwt);
      claims = decodeJwt(jwt);
    } catch {
      return no(403, 'InvalidProviderToken');
    }
    if (header.alg !== 'ES256' || header.kid !== opts.key.keyId || claims.iss !== opts.key.teamId || typeof claims.iat !== 'number')
      return no(403, 'InvalidProviderToken');
    if (!verified.has(jwt)) {
      if (!(await verifies(jwt, opts.key.publicKey, 'ES256'))) return no(403, 'InvalidProviderToken');
      verified.add(jwt);
    }
    const age = seconds(now()) - claims.iat;
    if (age > 3600) return no(403, 'ExpiredProviderToken');
    if (age < -60) return no(403, 'InvalidProviderToken');
    if (!tokens.some((t) => t.jwt === jwt)) {
      const last = tokens[tokens.length - 1];
      if (last && claims.iat - last.iat < 20 * 60) return no(429, 'TooManyProviderTokenUpdates');
      tokens.push({ jwt, iat: claims.iat });
    }
    if (headers['apns-topic'] === undefined) return no(400, 'MissingTopic');
    if (headers['apns-topic'] !== opts.bundleId) return no(400, 'TopicDisallowed');
    if (
      !['alert', 'background', 'voip', 'complication', 'fileprovider', 'mdm', 'liveactivity', 'pushtotalk'].includes(
        String(headers['apns-push-type']),
      )
    )
      return no(400, 'InvalidPushType');
    if (headers['apns-priority'] !== undefined && !['5', '10', '1'].includes(String(headers['apns-priority'])))
      return no(400, 'BadPriority');
    if (!body.length) return no(400, 'PayloadEmpty');
    if (body.length > 4096) return no(413, 'PayloadTooLarge');
    let payload: ApnsReceived['payload'];
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      return no(400, 'BadPayload');
    }
    if (typeof payload !== 'object' || payload === null || typeof payload.aps !== 'object' || payload.aps === null)
      return no(400, 'BadPayload');
    if (opts.keep !== false) arrived.push(token);
    const trick = tricks.take(token);
    if (trick && 'hold' in trick)
      await (typeof trick.hold === 'number' ? new Promise((resolve) => setTimeout(resolve, trick.hold as number)) : trick.hold);
    if (trick && 'gone' in trick) return no(410, 'Unregistered', { timestamp: now().getTime() });
    if (trick && 'throttle' in trick) {
      refused.push({ status: trick.status ?? 429, reason: 'TooManyRequests' });
      return [
        trick.status ?? 429,
        { 'retry-after': String(trick.throttle) },
        json({ reason: trick.status === 503 ? 'ServiceUnavailable' : 'TooManyRequests' }),
      ];
    }
    if (opts.keep !== false) received.push({ token, headers, payload, jwt });
    counts.set(token, (counts.get(token) ?? 0) + 1);
    return [200, { 'apns-id': randomUUID() }, ''];
  });
  return { ...server, received, counts, arrived, refused, tokens, tell: (token: string, trick: Trick) => tricks.set(token, trick) };
}

export type ApnsStandin = Awaited<ReturnType<typeof startApnsStandin>>;

/** An APNs device token: 32 random bytes in hex. */
export const apnsToken = () => randomBytes(32).toString('hex');

/**
 * `n` people of the app-mode with an iPhone each, in bulk (two statements): tokens sealed and hashed
 * as registration keeps them. Answers the tokens, in the people's order.
 */
export async function seedIphones(svc: Services, appModeId: string, n: number): Promise<string[]> {
  const contactIds = Array.from({ length: n }, () => randomUUID());
  const tokens = Array.from({ length: n }, apnsToken);
  const now = new Date();
  await exec(
    svc,
    sql`
    INSERT INTO contact (id, app_mode_id, external_id, created_at, updated_at)
    SELECT id, ${appModeId}, 'person-' || id, ${now}, ${now} FROM unnest(${contactIds}::text[]) AS x(id)`,
  );
  await exec(
    svc,
    sql`
    INSERT INTO device (id, app_mode_id, contact_id, platform, token_hash, token_sealed, app_version, created_at, last_seen_at)
    SELECT gen_random_uuid()::text, ${appModeId}, c, 'ios'::"DevicePlatform", h, s, '1.0', ${now}, ${now}
    FROM unnest(${contactIds}::text[], ${tokens.map((t) => tokenHashOf(svc, t))}::text[], ${tokens.map((t) => sealToken(svc, t))}::text[]) AS x(c, h, s)`,
  );
  return tokens;
}

// ---- FCM ----

export interface ServiceAccountFile {
  /** The JSON file's text, as the Firebase console downloads it. */
  json: string;
  projectId: string;
  clientEmail: string;
  privateKeyId: string;
  publicKey: KeyObject;
}

/** A new service account, as if downloaded from the Firebase console. */
export function makeServiceAccount(projectId = 'demo-project'): ServiceAccountFile {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = `firebase-adminsdk@${projectId}.iam.gserviceaccount.com`;
  const privateKeyId = randomBytes(20).toString('hex');
  const file = {
    type: 'service_account',
    project_id: projectId,
    private_key_id: privateKeyId,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    client_id: '1234567890',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  return { json: JSON.stringify(file), projectId, clientEmail, privateKeyId, publicKey };
}

export interface FcmReceived {
  token: string;
  message: { token: string; notification?: { title?: string; body?: string }; data?: Record<string, string>; [k: string]: unknown };
}

export async function startFcmStandin(cert: TestCertificate, opts: { account: ServiceAccountFile; now?: () => Date }) {
  const now = opts.now ?? (() => new Date());
  const tricks = new Tricks();
  const received: FcmReceived[] = [];
  const refused: { status: number; reason: string }[] = [];
  /** Access tokens issued, with when they expire (ms). */
  const issued = new Map<string, number>();
  const tokenRequests: { ok: boolean; reason?: string }[] = [];
  let origin = '';
  const error = (
    status: number,
    statusWord: string,
    errorCode?: string,
    extra: Record<string, string> = {},
  ): [number, Record<string, string>, string] => {
    refused.push({ status, reason: errorCode ?? statusWord });
    return [
      status,
      extra,
      json({
        error: {
          code: status,
          message: statusWord,
          status: statusWord,
          ...(errorCode ? { details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] } : {}),
        },
      }),
    ];
  };
  const grant = async (body: string): Promise<[number, Record<string, string>, string]> => {
    const form = new URLSearchParams(body);
    const refuse = (why: string): [number, Record<string, string>, string] => {
      tokenRequests.push({ ok: false, reason: why });
      return [400, {}, json({ error: 'invalid_grant', error_description: why })];
    };
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return refuse('grant_type');
    const assertion = form.get('assertion') ?? '';
    let header: ReturnType<typeof decodeProtectedHeader>;
    let claims: ReturnType<typeof decodeJwt>;
    try {
      header = decodeProtectedHeader(assertion);
      claims = decodeJwt(assertion);
    } catch {
      return refuse('Invalid JWT');
    }
    if (header.alg !== 'RS256') return refuse('alg');
    if (header.kid !== undefined && header.kid !== opts.account.privateKeyId) return refuse('Invalid JWT Signature (kid)');
    if (!(await verifies(assertion, opts.account.publicKey, 'RS256'))) return refuse('Invalid JWT Signature.');
    if (claims.iss !== opts.account.clientEmail) return refuse('iss');
    if (claims.aud !== `${origin}/token`) return refuse('Invalid JWT: aud');
    if (
      !String(claims.scope ?? '')
        .split(' ')
        .includes('https://www.googleapis.com/auth/firebase.messaging')
    )
      return refuse('scope');
    const t = seconds(now());
    if (
      typeof claims.iat !== 'number' ||
      typeof claims.exp !== 'number' ||
      claims.exp - claims.iat > 3600 ||
      claims.exp < t ||
      claims.iat > t + 60
    )
      return refuse('Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
    const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
    issued.set(accessToken, now().getTime() + 3599_000);
    tokenRequests.push({ ok: true });
    return [200, {}, json({ access_token: accessToken, expires_in: 3599, token_type: 'Bearer' })];
  };
  const server = await startH2(cert, async ({ headers, body }) => {
    const path = String(headers[':path']);
    if (headers[':method'] !== 'POST') return error(405, 'METHOD_NOT_ALLOWED');
    if (path === '/token') return grant(body.toString('utf8'));
    const m = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path);
    if (!m) return error(404, 'NOT_FOUND');
    const bearer = /^Bearer (\S+)$/.exec(String(headers.authorization ?? ''))?.[1];
    const expires = bearer ? issued.get(bearer) : undefined;
    if (expires === undefined || expires < now().getTime()) return error(401, 'UNAUTHENTICATED');
    if (decodeURIComponent(m[1]!) !== opts.account.projectId) return error(403, 'PERMISSION_DENIED');
    let message: FcmReceived['message'];
    try {
      message = (JSON.parse(body.toString('utf8')) as { message: FcmReceived['message'] }).message;
    } catch {
      return error(400, 'INVALID_ARGUMENT');
    }
    if (typeof message !== 'object' || message === null || typeof message.token !== 'string' || !message.token)
      return error(400, 'INVALID_ARGUMENT');
    if (message.data !== undefined && Object.values(message.data).some((v) => typeof v !== 'string')) return error(400, 'INVALID_ARGUMENT');
    if (Buffer.byteLength(JSON.stringify({ notification: message.notification ?? {}, data: message.data ?? {} })) > 4096)
      return error(400, 'INVALID_ARGUMENT');
    const trick = tricks.take(message.token);
    if (trick && 'gone' in trick) return error(404, 'NOT_FOUND', 'UNREGISTERED');
    if (trick && 'throttle' in trick)
      return error(
        trick.status ?? 429,
        trick.status === 503 ? 'UNAVAILABLE' : 'RESOURCE_EXHAUSTED',
        trick.status === 503 ? 'UNAVAILABLE' : 'QUOTA_EXCEEDED',
        { 'retry-after': String(trick.throttle) },
      );
    received.push({ token: message.token, message });
    return [200, {}, json({ name: `projects/${opts.account.projectId}/messages/${randomUUID()}` })];
  });
  origin = server.origin;
  return {
    ...server,
    tokenUrl: `${server.origin}/token`,
    received,
    refused,
    tokenRequests,
    tell: (token: string, trick: Trick) => tricks.set(token, trick),
  };
}

export type FcmStandin = Awaited<ReturnType<typeof startFcmStandin>>;

/** An FCM registration token's look. */
export const fcmToken = () => `${randomBytes(11).toString('base64url')}:APA91b${randomBytes(100).toString('base64url')}`;

// ---- Web Push ----

interface Subscriber {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
}

export interface WebReceived {
  id: string;
  headers: IncomingHttpHeaders;
  /** The payload as the browser decrypts it. */
  payload: string;
}

/** RFC 8291 decryption of an aes128gcm body with the subscription's private key and auth secret; throws when it does not decrypt. */
function decrypt(body: Buffer, sub: Subscriber): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const senderKey = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (idlen !== 65 || rs < 18 || ciphertext.length > rs || ciphertext.length < 17) throw new Error('bad aes128gcm header');
  const shared = sub.ecdh.computeSecret(senderKey);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), sub.ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, sub.auth, info, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('no last-record delimiter');
  return plain.subarray(0, end).toString('utf8');
}

/** A P-256 public key from its raw uncompressed form. */
function rawP256(raw: Buffer): KeyObject {
  return createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
}

export async function startWebPushStandin(cert: TestCertificate) {
  const tricks = new Tricks();
  const subscribers = new Map<string, Subscriber & { vapidKey: string }>();
  const received: WebReceived[] = [];
  const refused: { status: number; reason: string }[] = [];
  let origin = '';
  const server: HttpsServer = createHttpsServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const no = (status: number, reason: string, headers: Record<string, string> = {}) => {
        refused.push({ status, reason });
        res.writeHead(status, headers).end(reason);
      };
      const body = Buffer.concat(chunks);
      const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1];
      const sub = id ? subscribers.get(id) : undefined;
      if (req.method !== 'POST' || !id || !sub) return no(404, 'no such subscription');
      // VAPID (RFC 8292): Authorization: vapid t=<JWT>, k=<the application server's public key>.
      const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(req.headers.authorization ?? ''));
      if (!m) return no(401, 'no VAPID authorization');
      const [, jwt, k] = m as unknown as [string, string, string];
      if (k !== sub.vapidKey) return no(403, 'the subscription was made with another application server key');
      try {
        const header = decodeProtectedHeader(jwt);
        const claims = decodeJwt(jwt);
        if (header.alg !== 'ES256') return no(401, 'alg');
        if (!(await verifies(jwt, rawP256(Buffer.from(k, 'base64url')), 'ES256'))) return no(401, 'bad signature');
        if (claims.aud !== origin) return no(401, 'aud');
        const t = seconds(new Date());
        if (typeof claims.exp !== 'number' || claims.exp < t || claims.exp > t + 24 * 3600) return no(401, 'exp');
        if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return no(401, 'sub');
      } catch {
        return no(401, 'unreadable JWT');
      }
      if (!/^\d+$/.test(String(req.headers.ttl ?? ''))) return no(400, 'TTL');
      if (req.headers['content-encoding'] !== 'aes128gcm') return no(415, 'content-encoding');
      if (body.length > 4096) return no(413, 'payload too large');
      let payload: string;
      try {
        payload = decrypt(body, sub);
      } catch (err) {
        return no(400, `does not decrypt: ${(err as Error).message}`);
      }
      const trick = tricks.take(id);
      if (trick && 'gone' in trick) return no(410, 'gone');
      if (trick && 'throttle' in trick) return no(trick.status ?? 429, 'throttled', { 'Retry-After': String(trick.throttle) });
      received.push({ id, headers: req.headers, payload });
      res.writeHead(201, { Location: `${origin}/message/${randomUUID()}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `https://127.0.0.1:${port}`;
  return {
    origin,
    hostPort: `127.0.0.1:${port}`,
    received,
    refused,
    /** A browser's subscription for `vapidPublicKey`: its JSON is the device token; `id` names it here. */
    subscribe(vapidPublicKey: string) {
      const id = randomBytes(12).toString('base64url');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subscribers.set(id, { ecdh, auth, vapidKey: vapidPublicKey });
      const token = JSON.stringify({
        endpoint: `${origin}/push/${id}`,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      });
      return { id, token };
    },
    tell: (id: string, trick: Trick) => tricks.set(id, trick),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WebPushStandin = Awaited<ReturnType<typeof startWebPushStandin>>;
