import { one, sql } from '../../db/sql.js';
import type { TestTrust } from '../../lib/outbound/index.js';
import type { Ctx } from '../context.js';
import { DomainError } from '../errors.js';
import { signAsApp } from '../webhooks/app-secret.js';
import { webhookBody } from '../webhooks/body.js';
import { postSignedAs } from '../webhooks/post.js';
import { lastTry, MAX_TRIES, RETRY_WAITS_MS } from '../webhooks/schedule.js';
import { recordStep, skipped, stepBegun, stillToTake, type Done, type Visit } from './run-record.js';

// A workflow's webhook step: posts to the customer's server signed with the app's own webhook
// secret (spec: Delivery rules 5), in the scheme and under the retry rules of every endpoint: one
// X-CRM-Delivery and one body over all the tries of a visit, 10 tries with growing waits, a 4xx
// other than 408, 425 and 429 or a redirect not tried again, and a Retry-After longer than the
// schedule's wait honoured (up to an hour). Each try is one activity; the run waits between tries
// on a durable timer, so a restart neither loses a try nor makes one twice once it is recorded.

/** The longest Retry-After honoured. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

export interface WebhookVisit extends Visit {
  appModeId: string;
  workflowId: string;
  step: { key: string; kind: string; url: string };
  /** When the run entered the step: the post's `created_at`, the same on every try. */
  at: string;
  attempt: number;
}

export interface WebhookOptions {
  testTrust?: TestTrust;
  /** Tests only: the schedule's waits between tries made this long. */
  retryWaitMs?: number;
}

const keyOf = (v: WebhookVisit) => `${v.runKey}\u0000${v.step.key}\u0000${v.visit}`;

/** One try: `sent`, `failed` with the receiver's answer, or (not recorded yet) another try after `retryInMs`. */
export async function tryStepWebhook(ctx: Ctx, v: WebhookVisit, opts: WebhookOptions = {}): Promise<Done & { retryInMs?: number }> {
  const record = (done: Done) => recordStep(ctx, v, done);
  // Erased, or tried and recorded before a restart: the record answers what stands.
  if (!(await stillToTake(ctx, v))) return record(skipped('erased'));
  const mode = await one<{ appId: string; externalId: string }>(
    ctx,
    sql`SELECT m.app_id AS "appId", k.external_id AS "externalId" FROM app_mode m, contact k WHERE m.id = ${v.appModeId} AND k.id = ${v.contactId}`,
  );
  if (!mode) return record(skipped('erased'));
  const id = ctx.svc.secrets.keyedHash('workflow-webhook', keyOf(v)).slice(0, 24);
  const body = webhookBody({
    id: `evt_${id}`,
    type: 'workflow.step',
    createdAt: new Date(v.at),
    appId: mode.appId,
    data: { workflow_id: v.workflowId, run_id: v.runKey, step: v.step.key },
    contact: { external_id: mode.externalId },
  });
  let signature: string;
  try {
    signature = await signAsApp(ctx, v.appModeId, body);
  } catch (err) {
    if (err instanceof DomainError && err.status === 409)
      return record({ outcome: 'failed', reason: 'no_webhook_secret', detail: err.detail });
    throw err;
  }
  const { result, delivered } = await postSignedAs(v.step.url, signature, `dlv_${id}`, body, opts);
  const detail = result.failure === undefined ? `answered ${result.status}` : `${result.failure}: ${result.detail}`;
  if (delivered) return record({ outcome: 'sent', detail });
  if (lastTry(result, v.attempt))
    return record({ outcome: 'failed', reason: 'webhook_refused', detail: `${detail} (try ${v.attempt} of ${MAX_TRIES})` });
  await stepBegun(ctx, v);
  const scheduled = opts.retryWaitMs ?? RETRY_WAITS_MS[v.attempt - 1]!;
  const asked = result.failure === undefined ? Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS) : 0;
  return { outcome: 'retry', detail, retryInMs: Math.max(scheduled, asked) };
}
