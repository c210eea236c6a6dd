import type { DevicePlatform } from '../../generated/prisma/client.js';
import type { Services } from '../context.js';

// A push token is a secret of the person's phone or browser: whoever holds it can push to them. It
// is kept sealed (AES-256-GCM under CRM_SECRET_KEY), opened only to send, and found by a keyed hash,
// never written to a log, an export or the staff API.

/** The longest token taken: an FCM token is about 160 characters, an APNs token 64, a Web Push subscription a few hundred. */
export const MAX_TOKEN = 4_096;

export const tokenHashOf = (svc: Pick<Services, 'secrets'>, token: string) => svc.secrets.keyedHash('device-token', token);
export const sealToken = (svc: Pick<Services, 'secrets'>, token: string) => svc.secrets.seal(token);
export const openToken = (svc: Pick<Services, 'secrets'>, sealed: string) => svc.secrets.open(sealed);

/**
 * Why a token cannot be taken for the platform, or undefined. Any token is printable ASCII; on
 * `web` it is the browser's PushSubscription as JSON (`JSON.stringify(subscription)`): an https
 * `endpoint` and `keys` with `p256dh` and `auth`, which Web Push needs to encrypt a message.
 */
export function tokenProblem(platform: DevicePlatform, token: string): string | undefined {
  if (!/^[\x21-\x7e][\x20-\x7e]*$/.test(token) || token.length > MAX_TOKEN) return `must be 1 to ${MAX_TOKEN} printable ASCII characters`;
  if (platform !== 'web') return undefined;
  let sub: unknown;
  try {
    sub = JSON.parse(token);
  } catch {
    sub = undefined;
  }
  const s = sub as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | undefined;
  const https = typeof s?.endpoint === 'string' && URL.canParse(s.endpoint) && new URL(s.endpoint).protocol === 'https:';
  if (!https || typeof s?.keys?.p256dh !== 'string' || typeof s.keys.auth !== 'string') {
    return 'must be the PushSubscription as JSON on web: an https endpoint and keys with p256dh and auth';
  }
  return undefined;
}
