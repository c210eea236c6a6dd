import type { SignupSettings } from '../../config.js';
import { DomainError, forbidden } from '../errors.js';

// The sign-up's anti-bot check: the page's `bot_check_token` verified by a Cloudflare Turnstile
// siteverify-compatible verifier (a form POST of `secret`, `response` and `remoteip`, answered JSON
// with `success`). It fails closed: a verifier that cannot be reached, is slow, or answers anything
// but a readable verdict refuses the sign-up with 503, never lets it through.

/** How long the verifier may take. */
export const BOT_CHECK_TIMEOUT_MS = 5_000;

export const botCheckFailed = () =>
  forbidden('bot_check_failed', 'The anti-bot check failed: solve the challenge again and send its new token.');

export const botCheckUnavailable = () =>
  new DomainError(
    503,
    'bot_check_unavailable',
    'Try again',
    'The anti-bot check cannot be reached just now; nothing was done. Try again shortly.',
    [],
    {
      'Retry-After': '30',
    },
  );

/** Passes, or refuses: 403 when the token is missing or the verifier says no, 503 when the verifier cannot answer. */
export async function checkBot(check: SignupSettings['botCheck'], token: string | undefined, address: string): Promise<void> {
  if (!check) return;
  if (!token) throw botCheckFailed();
  let verdict: unknown;
  try {
    const answer = await fetch(check.url, {
      method: 'POST',
      body: new URLSearchParams({ secret: check.secret, response: token, remoteip: address }),
      redirect: 'error',
      signal: AbortSignal.timeout(BOT_CHECK_TIMEOUT_MS),
    });
    if (!answer.ok) throw new Error(`the verifier answered ${answer.status}`);
    verdict = await answer.json();
  } catch {
    throw botCheckUnavailable();
  }
  const success = (verdict as { success?: unknown } | null)?.success;
  if (typeof success !== 'boolean') throw botCheckUnavailable();
  if (!success) throw botCheckFailed();
}
