import { one, sql } from '../../db/sql.js';
import type { Services } from '../context.js';
import { notSetUp, unauthorized } from '../errors.js';
import { verifyHookSignature, type SignatureVerdict } from './hook-signature.js';

// Who may post to the inbound email hooks: whoever signs the raw body with the inbound secret in
// force. On `/public/v1/apps/{key}/…` that is the app-mode's own secret (and, until it lapses, the
// one before its last roll); on the two deployment-wide routes, the deployment's (CRM_INBOUND_SECRET),
// which answers 503 while unset. A key that names no app-mode is refused as a wrong signature is:
// the answer tells no one which keys exist.

/** Whose hook was posted to: an app-mode's, or the deployment's (the mail then names its app-mode). */
export type HookOwner = { appModeId: string } | 'deployment';

const REFUSALS: Record<Exclude<SignatureVerdict, 'ok'>, string> = {
  missing: 'Sign the post: X-CRM-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> under the inbound secret.',
  malformed: 'X-CRM-Signature must read t=<unix seconds>,v1=<64 hex digits> (several v1 values may be given).',
  stale: 'X-CRM-Signature: t is more than five minutes from now; sign each post afresh.',
  wrong: 'X-CRM-Signature does not match the body under the inbound secret.',
};

export async function checkHookPost(
  svc: Services,
  appKey: string | undefined,
  header: string | undefined,
  raw: Buffer,
): Promise<HookOwner> {
  const now = new Date();
  let owner: HookOwner = 'deployment';
  let secrets: string[] = [];
  if (appKey === undefined) {
    if (!svc.config.inboundSecret) throw notSetUp('The deployment-wide inbound email hooks are not set up here (CRM_INBOUND_SECRET).');
    secrets = [svc.config.inboundSecret];
  } else {
    const mode = await one<{ id: string; current: string; previous: string | null; until: Date | null }>(
      svc,
      sql`SELECT id, inbound_secret_enc AS current, previous_inbound_secret_enc AS previous, previous_inbound_until AS until
          FROM app_mode WHERE app_key = ${appKey}`,
    );
    if (mode) {
      owner = { appModeId: mode.id };
      secrets = [svc.secrets.open(mode.current)];
      if (mode.previous && mode.until && mode.until > now) secrets.push(svc.secrets.open(mode.previous));
    }
  }
  const verdict = verifyHookSignature(header, raw, secrets, now);
  if (verdict !== 'ok') throw unauthorized(REFUSALS[verdict]);
  return owner;
}
