// What a provider answered for one push, in one shape for APNs, FCM and Web Push, so senders decide
// alike whichever provider a device is on. Never a token or a credential in a reason.

export type PushOutcome =
  /** The provider took the push (APNs 200, FCM 200, Web Push 201). */
  | { kind: 'sent'; id?: string }
  /** The token will never work again (APNs 410, Unregistered, BadDeviceToken; FCM UNREGISTERED or 404; Web Push 404 or 410): forget the device. */
  | { kind: 'gone'; reason: string; /** APNs says since when the token was invalid. */ since?: Date }
  /**
   * Throttled or unavailable (429, 500, 503, or no answer): send again after `afterMs` (the
   * provider's Retry-After when it gave one). `provider`: the provider as a whole asked for the
   * pause (not this one token), so sending anything more to it now is pointless.
   */
  | { kind: 'retry'; reason: string; afterMs: number; provider: boolean }
  /**
   * Refused for good. `systemic`: not this token's fault (the credentials or the provider's address
   * were refused), so every other push through this provider with these settings fails alike.
   */
  | { kind: 'failed'; reason: string; systemic?: boolean };

/** The wait when a provider asks for a pause without saying how long. */
export const DEFAULT_RETRY_MS = 5_000;
/** The longest wait taken from a Retry-After: beyond it a send would sit for hours. */
export const MAX_RETRY_AFTER_MS = 15 * 60_000;

/** Retry-After (seconds, or an HTTP date) in milliseconds from `now`, within [0, MAX_RETRY_AFTER_MS]; the default when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: Date, fallback = DEFAULT_RETRY_MS): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return fallback;
  const ms = /^\s*\d+\s*$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now.getTime();
  if (!Number.isFinite(ms)) return fallback;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** A push refused before sending: its payload is larger than the provider takes. */
export class PayloadTooLarge extends Error {
  constructor(
    readonly provider: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`the ${provider} payload is ${bytes.toLocaleString('en')} bytes, above the ${limit.toLocaleString('en')} ${provider} takes`);
  }
}

export const tooLarge = (err: PayloadTooLarge): PushOutcome => ({ kind: 'failed', reason: `payload_too_large: ${err.message}` });

/** The UTF-8 size of a payload. */
export const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

/** No answer came: a refused address or certificate is the settings' fault and stays so; a lost or slow connection is worth another try. */
export function transportOutcome(failure: { failure: string; detail: string }): PushOutcome {
  if (failure.failure === 'refused_address' || failure.failure === 'refused_url' || failure.failure === 'tls')
    return { kind: 'failed', reason: `${failure.failure}: ${failure.detail}`, systemic: true };
  return { kind: 'retry', reason: `${failure.failure}: ${failure.detail}`, afterMs: DEFAULT_RETRY_MS, provider: true };
}
