import type { Ctx } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { newWebhookSecret, webhookSecretHint } from './secrets.js';
import { signatureHeader } from './signature.js';

// Each app-mode's own webhook secret, which a workflow's webhook step signs its posts to the
// customer's servers with (spec: Delivery rules 5), in the scheme of every webhook post. Shown once
// when made; kept sealed like the identity secret; a new one replaces the old at once, since every
// signature reads the secret as it is then.

export interface NewAppWebhookSecret {
  appModeId: string;
  /** The `whsec_…` secret, shown this once. */
  secret: string;
  secretHint: string;
  createdAt: Date;
}

export interface AppWebhookSecretState {
  appModeId: string;
  /** Whether the app-mode has one; its value is never shown again. */
  set: boolean;
  secretHint: string | null;
  /** When the current secret was made. */
  createdAt: Date | null;
}

/** Makes the app-mode's webhook secret, or a new one in place of the old, which signs nothing from now on. */
export async function renewAppWebhookSecret(ctx: Ctx, appModeId: string): Promise<NewAppWebhookSecret> {
  if (!(await ctx.db.appMode.count({ where: { id: appModeId } }))) throw notFound('No such app.');
  const secret = newWebhookSecret();
  const kept = { secretEnc: ctx.svc.secrets.seal(secret), secretHint: webhookSecretHint(secret), createdAt: ctx.clock.now() };
  // One statement (INSERT … ON CONFLICT): renewals at once each leave a whole secret, the last one standing.
  const row = await ctx.db.appWebhookSecret.upsert({ where: { appModeId }, create: { appModeId, ...kept }, update: kept });
  return { appModeId, secret, secretHint: row.secretHint, createdAt: row.createdAt };
}

/** Whether the app-mode has a webhook secret, and since when; never its value. */
export async function appWebhookSecretState(ctx: Ctx, appModeId: string): Promise<AppWebhookSecretState> {
  const row = await ctx.db.appWebhookSecret.findUnique({ where: { appModeId }, select: { secretHint: true, createdAt: true } });
  return { appModeId, set: !!row, secretHint: row?.secretHint ?? null, createdAt: row?.createdAt ?? null };
}

/**
 * The X-CRM-Signature of `body` under the app-mode's webhook secret as it is now, at the clock's
 * time: what a workflow's webhook step sends with its post. Refused (409
 * `app_webhook_secret_unset`) while the app-mode has none: such a step never posts unsigned.
 */
export async function signAsApp(ctx: Ctx, appModeId: string, body: string): Promise<string> {
  const row = await ctx.db.appWebhookSecret.findUnique({ where: { appModeId }, select: { secretEnc: true } });
  if (!row)
    throw conflict(
      'app_webhook_secret_unset',
      'The app has no webhook secret yet: make one (renewAppWebhookSecret) before its workflows post to your servers.',
    );
  return signatureHeader(ctx.svc.secrets.open(row.secretEnc), body, ctx.clock.now());
}
