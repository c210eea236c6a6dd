import { createPrivateKey } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { messageIdDomain } from './lib/mail-domain.js';
import { readBlobSettings, type BlobSettings } from './lib/blobs/open.js';
import { readTestTrust, type TestTrust } from './lib/outbound/test-trust.js';

// Every setting the service reads from its environment; docs/configuration.md lists them.

/** The folder of package.json: this file runs from src/ (tsx, vitest) and from dist/src/ (built). */
export const PROJECT_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && dir !== path.dirname(dir)) dir = path.dirname(dir);
  return dir;
})();

/**
 * The project's own `.data`, wherever the server or `crm` is started from: a folder relative to
 * the working directory would quietly start a second, empty database with its own secret key.
 */
export const PROJECT_DATA_DIR = path.join(PROJECT_ROOT, '.data');

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  /** 32 bytes, base64: encrypts identity, inbound and webhook secrets at rest. */
  secretKey: string | undefined;
  temporalAddress: string | undefined;
  temporalNamespace: string;
  temporalTaskQueue: string;
  /** Browser origins allowed to open the staff GraphQL WebSocket. */
  staffConsoleOrigins: string[];
  /** Read the caller's address from X-Forwarded-For (behind a proxy you run). */
  trustProxy: boolean;
  maxBodyBytes: number;
  /** Tests only (OUTBOUND_TEST_TRUST): exact host:port targets outbound posts may reach although private, and the CA trusted for them. */
  outboundTestTrust: TestTrust | undefined;
  /** Tests only (WEBHOOK_TEST_RETRY_WAIT_MS): every wait between a webhook delivery's tries is this long, instead of 5 s growing to 5 minutes. */
  webhookTestRetryWaitMs: number | undefined;
  /**
   * The embedded engine's lease on a running activity (EMBEDDED_ENGINE_LEASE_MS): a killed server's
   * runs are taken up by another this soon; its heartbeat extends the leases every three tenths of it.
   */
  embeddedEngineLeaseMs: number;
  /** How long a client may take to send a request's headers, the whole request, and how long a connection may sit idle (ms). */
  timeouts: { headersMs: number; requestMs: number; idleMs: number; keepAliveMs: number };
  /** Connections each server process keeps to PostgreSQL. */
  databasePoolSize: number;
  /** Outgoing mail goes to this SMTP server (`smtp://user:pass@host:587`, `smtps://…`); without it, mail is kept in the database. */
  smtpUrl: string | undefined;
  /** The From of outgoing mail: `Name <address>` or an address. */
  mailFrom: string;
  /** The deployment's inbound secret (CRM_INBOUND_SECRET): signs posts to `/public/v1/email-events` and `/public/v1/inbound-email`; unset, they answer 503. */
  inboundSecret: string | undefined;
  /** The domain of reply and inbox addresses (INBOUND_EMAIL_DOMAIN; by default the domain of MAIL_FROM). */
  inboundDomain: string;
  /** DKIM signing of the mail sent over SMTP (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY: all three or none). */
  dkim: DkimSettings | undefined;
  /** Where files are kept (BLOB_STORE): PostgreSQL, or an S3-compatible bucket. */
  blobs: BlobSettings;
  /** How long a conversation long poll (GET …/wait) waits with nothing new (ms). */
  conversationWaitMs: number;
  /** Where pushes go: the providers' own addresses. Private addresses (a test's stand-ins) are reached only when OUTBOUND_TEST_TRUST names them. */
  push: PushAddresses;
  limits: RateLimits;
  /** Public sign-up (POST /public/v1/signup): off, answered 503, without SIGNUP_HOME_ORIGIN. */
  signup: SignupSettings | undefined;
}

export interface SignupSettings {
  /** The customer's home page origin (SIGNUP_HOME_ORIGIN): the only one a page may call sign-up from. */
  homeOrigin: string;
  /** A Cloudflare Turnstile siteverify-compatible verifier of `bot_check_token` (SIGNUP_BOT_CHECK_URL, SIGNUP_BOT_CHECK_SECRET): both or none. */
  botCheck: { url: string; secret: string } | undefined;
}

export interface DkimSettings {
  /** The signing domain (the signature's d=): the domain the public key is published under. */
  domainName: string;
  /** The selector (s=): the key's TXT record is `{selector}._domainkey.{domain}`. */
  keySelector: string;
  /** The RSA private key, PEM. */
  privateKey: string;
}

export interface PushAddresses {
  /** APNs for production tokens (APNS_URL) and for development (sandbox) tokens (APNS_SANDBOX_URL). */
  apnsUrl: string;
  apnsSandboxUrl: string;
  /** FCM HTTP v1 (FCM_URL), and the OAuth token endpoint a service account's assertion is exchanged at (FCM_TOKEN_URL). */
  fcmUrl: string;
  fcmTokenUrl: string;
}

export interface RateLimits {
  serverKeyPerMinute: number;
  guestAppPerMinute: number;
  guestAddressPerMinute: number;
  publicAppPerMinute: number;
  publicAddressPerMinute: number;
  /** Uploads to and reads from the service's own signed blob addresses, per caller address. */
  blobAddressPerMinute: number;
}

const int = (v: string | undefined, d: number) => (v === undefined || v === '' ? d : Number.parseInt(v, 10));
const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A provider's address: https, no credentials or query in it; no trailing slash. */
function pushAddress(name: string, value: string | undefined, fallback: string): string {
  const text = value || fallback;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || url.protocol !== 'https:' || url.username || url.password || url.search || url.hash)
    throw new Error(`${name} must be an https address, not "${text}"`);
  return text.replace(/\/$/, '');
}

/** `CRM <no-reply@host>`, the host being BASE_URL's when it is a name (an address or none: localhost). */
function defaultMailFrom(baseUrl: string | undefined): string {
  const host = baseUrl ? new URL(baseUrl).hostname : 'localhost';
  return `CRM <no-reply@${/[a-z]/i.test(host) && !host.includes(':') ? host : 'localhost'}>`;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;
const SELECTOR = /^(?=.{1,253}$)[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?)*$/i;
const DKIM_NAMES = ['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY'] as const;

/**
 * DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY (an RSA key in PEM, its line breaks as they are
 * or written `\n`): all three, or none (mail unsigned). A partial set or a key that does not read
 * stops the start, naming what is wrong (never showing the key).
 */
function readDkim(env: NodeJS.ProcessEnv): DkimSettings | undefined {
  const given = DKIM_NAMES.filter((name) => env[name]?.trim());
  if (given.length === 0) return undefined;
  const missing = DKIM_NAMES.filter((name) => !given.includes(name));
  if (missing.length)
    throw new Error(
      `DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY together: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing (set all three, or none to send unsigned)`,
    );
  const domainName = env.DKIM_DOMAIN!.trim().toLowerCase();
  const keySelector = env.DKIM_SELECTOR!.trim();
  if (!DOMAIN.test(domainName)) throw new Error(`DKIM_DOMAIN must be a domain name such as example.com, not "${domainName}"`);
  if (!SELECTOR.test(keySelector)) throw new Error(`DKIM_SELECTOR must be a DNS label such as mail2026, not "${keySelector}"`);
  const privateKey = `${env
    .DKIM_PRIVATE_KEY!.replace(/(\\r)?\\n/g, '\n')
    .replace(/\r\n/g, '\n')
    .trim()}\n`;
  let type: string | undefined;
  try {
    type = createPrivateKey(privateKey).asymmetricKeyType;
  } catch {
    throw new Error(
      'DKIM_PRIVATE_KEY must be a private key in PEM (-----BEGIN PRIVATE KEY----- …), its line breaks as they are or written \\n',
    );
  }
  if (type !== 'rsa') throw new Error(`DKIM_PRIVATE_KEY must be an RSA key (rsa-sha256 signatures), not ${type}`);
  return { domainName, keySelector, privateKey };
}

/**
 * SIGNUP_HOME_ORIGIN (an origin as a browser writes it: scheme, host, a port only if not the usual
 * one; no path), and the bot check's SIGNUP_BOT_CHECK_URL with SIGNUP_BOT_CHECK_SECRET (both or
 * none). Anything else stops the start, naming what is wrong (never showing the secret).
 */
function readSignup(env: NodeJS.ProcessEnv): SignupSettings | undefined {
  const origin = env.SIGNUP_HOME_ORIGIN?.trim();
  const url = env.SIGNUP_BOT_CHECK_URL?.trim();
  const secret = env.SIGNUP_BOT_CHECK_SECRET?.trim();
  if (!origin) {
    if (url || secret)
      throw new Error('SIGNUP_BOT_CHECK_URL and SIGNUP_BOT_CHECK_SECRET need SIGNUP_HOME_ORIGIN: sign-up is off without it');
    return undefined;
  }
  const parsed = URL.canParse(origin) ? new URL(origin) : undefined;
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin)
    throw new Error(`SIGNUP_HOME_ORIGIN must be an origin such as https://www.example.com (no path, no trailing slash), not "${origin}"`);
  if (!url !== !secret)
    throw new Error(
      `The sign-up bot check needs SIGNUP_BOT_CHECK_URL and SIGNUP_BOT_CHECK_SECRET together: ${url ? 'SIGNUP_BOT_CHECK_SECRET' : 'SIGNUP_BOT_CHECK_URL'} is missing`,
    );
  if (url && !(URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)))
    throw new Error(`SIGNUP_BOT_CHECK_URL must be an absolute http(s) address, not "${url}"`);
  return { homeOrigin: origin, botCheck: url && secret ? { url, secret } : undefined };
}

/** The lease bounds: a heartbeat every three tenths of a second at the least, and a killed server's runs taken up within 10 minutes. */
export const ENGINE_LEASE_BOUNDS_MS = { min: 1_000, max: 600_000, default: 10_000 } as const;

/** EMBEDDED_ENGINE_LEASE_MS: a whole number of milliseconds within ENGINE_LEASE_BOUNDS_MS; anything else stops the start. */
function readEngineLease(value: string | undefined): number {
  const { min, max } = ENGINE_LEASE_BOUNDS_MS;
  if (value === undefined || value.trim() === '') return ENGINE_LEASE_BOUNDS_MS.default;
  const ms = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(ms >= min && ms <= max))
    throw new Error(`EMBEDDED_ENGINE_LEASE_MS must be a whole number of milliseconds from ${min} to ${max}, not "${value}"`);
  return ms;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 8080);
  if (env.BASE_URL && !/^https?:\/\/[^/]/.test(env.BASE_URL))
    throw new Error(`BASE_URL must be an absolute http(s) address, not "${env.BASE_URL}"`);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl: (env.BASE_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || PROJECT_DATA_DIR,
    logLevel: env.LOG_LEVEL || 'info',
    secretKey: env.CRM_SECRET_KEY || undefined,
    temporalAddress: env.TEMPORAL_ADDRESS || undefined,
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    temporalTaskQueue: env.TEMPORAL_TASK_QUEUE || 'crm',
    staffConsoleOrigins: list(env.STAFF_CONSOLE_ORIGINS),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    maxBodyBytes: int(env.MAX_BODY_BYTES, 1_048_576),
    outboundTestTrust: readTestTrust(env.OUTBOUND_TEST_TRUST),
    webhookTestRetryWaitMs: env.WEBHOOK_TEST_RETRY_WAIT_MS ? int(env.WEBHOOK_TEST_RETRY_WAIT_MS, 0) : undefined,
    embeddedEngineLeaseMs: readEngineLease(env.EMBEDDED_ENGINE_LEASE_MS),
    timeouts: {
      headersMs: int(env.HTTP_HEADERS_TIMEOUT_MS, 10_000),
      requestMs: int(env.HTTP_REQUEST_TIMEOUT_MS, 30_000),
      // Above the conversation long poll's 25 s, during which the connection is silent.
      idleMs: int(env.HTTP_IDLE_TIMEOUT_MS, 40_000),
      keepAliveMs: int(env.HTTP_KEEP_ALIVE_TIMEOUT_MS, 5_000),
    },
    databasePoolSize: int(env.DATABASE_POOL_SIZE, 10),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || defaultMailFrom(env.BASE_URL),
    inboundSecret: env.CRM_INBOUND_SECRET || undefined,
    inboundDomain: (env.INBOUND_EMAIL_DOMAIN || messageIdDomain(env.MAIL_FROM || defaultMailFrom(env.BASE_URL))).toLowerCase(),
    dkim: readDkim(env),
    blobs: readBlobSettings(env),
    conversationWaitMs: int(env.CONVERSATION_WAIT_MS, 25_000),
    push: {
      apnsUrl: pushAddress('APNS_URL', env.APNS_URL, 'https://api.push.apple.com'),
      apnsSandboxUrl: pushAddress('APNS_SANDBOX_URL', env.APNS_SANDBOX_URL, 'https://api.sandbox.push.apple.com'),
      fcmUrl: pushAddress('FCM_URL', env.FCM_URL, 'https://fcm.googleapis.com'),
      fcmTokenUrl: pushAddress('FCM_TOKEN_URL', env.FCM_TOKEN_URL, 'https://oauth2.googleapis.com/token'),
    },
    limits: {
      // The spec fixes this one.
      serverKeyPerMinute: 1200,
      guestAppPerMinute: int(env.RATE_GUEST_APP_PER_MINUTE, 60_000),
      guestAddressPerMinute: int(env.RATE_GUEST_ADDRESS_PER_MINUTE, 600),
      publicAppPerMinute: int(env.RATE_PUBLIC_APP_PER_MINUTE, 30_000),
      publicAddressPerMinute: int(env.RATE_PUBLIC_ADDRESS_PER_MINUTE, 300),
      blobAddressPerMinute: int(env.RATE_BLOB_ADDRESS_PER_MINUTE, 1200),
    },
    signup: readSignup(env),
  };
}
