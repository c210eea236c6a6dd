import { randomUUID } from 'node:crypto';
import type { WebhookEndpoint } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type TxCtx } from '../context.js';
import { conflict, invalid, notFound, type FieldError } from '../errors.js';
import { newWebhookSecret, webhookSecretHint } from './secrets.js';
import { isWebhookTopic, WEBHOOK_TOPICS } from './topics.js';
import { rows, sql } from '../../db/sql.js';

// Webhook endpoints, as staff keep them: an https address and the topics it wants, at most 20 per
// app (both modes together), each with its own secret shown once. A new secret stops the old one at
// once: every try reads the endpoint's current secret and signs afresh.

export const MAX_WEBHOOK_ENDPOINTS = 20;
export const MAX_WEBHOOK_URL = 2000;
export const MAX_WEBHOOK_DESCRIPTION = 200;

export interface EndpointInput {
  url?: string;
  topics?: string[];
  description?: string | null;
}

/** An endpoint, and its secret when this call made one (shown this once). */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

export async function addWebhookEndpoint(
  ctx: Ctx,
  appModeId: string,
  input: Required<Pick<EndpointInput, 'url' | 'topics'>> & EndpointInput,
): Promise<EndpointWithSecret> {
  const data = checked(input);
  return transaction(ctx, async (tx) => {
    const appId = await lockApp(tx, appModeId);
    const count = await tx.db.webhookEndpoint.count({ where: { appMode: { appId } } });
    if (count >= MAX_WEBHOOK_ENDPOINTS)
      throw conflict(
        'webhook_endpoint_limit',
        `An app has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints (both modes together); remove one first.`,
      );
    const secret = newWebhookSecret();
    const now = tx.clock.now();
    const endpoint = await tx.db.webhookEndpoint.create({
      data: {
        id: randomUUID(),
        appModeId,
        url: data.url!,
        topics: data.topics!,
        description: data.description ?? null,
        secretEnc: tx.svc.secrets.seal(secret),
        secretHint: webhookSecretHint(secret),
        createdAt: now,
        updatedAt: now,
      },
    });
    return { endpoint, secret };
  });
}

/** Changes what is given (address, topics, description); what is posted from now on follows. */
export async function changeWebhookEndpoint(ctx: Ctx, id: string, input: EndpointInput): Promise<WebhookEndpoint> {
  const data = checked(input);
  const { count } = await ctx.db.webhookEndpoint.updateMany({ where: { id }, data: { ...data, updatedAt: ctx.clock.now() } });
  if (!count) throw noSuchEndpoint();
  return ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
}

/** Removes the endpoint, its log and its deliveries; posts in flight stop at their next try. */
export async function removeWebhookEndpoint(ctx: Ctx, id: string): Promise<void> {
  const { count } = await ctx.db.webhookEndpoint.deleteMany({ where: { id } });
  if (!count) throw noSuchEndpoint();
}

/** A new secret, shown this once; the old one signs nothing from now on. */
export async function renewWebhookSecret(ctx: Ctx, id: string): Promise<EndpointWithSecret> {
  const secret = newWebhookSecret();
  const { count } = await ctx.db.webhookEndpoint.updateMany({
    where: { id },
    data: { secretEnc: ctx.svc.secrets.seal(secret), secretHint: webhookSecretHint(secret), updatedAt: ctx.clock.now() },
  });
  if (!count) throw noSuchEndpoint();
  return { endpoint: await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id } }), secret };
}

/** Switches posting on or off. Switching on starts the failure count afresh. */
export async function switchWebhookEndpoint(ctx: Ctx, id: string, on: boolean): Promise<WebhookEndpoint> {
  const now = ctx.clock.now();
  const data = on ? { enabled: true, failures: 0, failingSince: null, switchedOffAt: null } : { enabled: false };
  const { count } = await ctx.db.webhookEndpoint.updateMany({ where: { id }, data: { ...data, updatedAt: now } });
  if (!count) throw noSuchEndpoint();
  return ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
}

const noSuchEndpoint = () => notFound('No such webhook endpoint.');

/** The app of an app-mode, its row locked so two endpoints added at once cannot both pass the limit. */
async function lockApp(tx: TxCtx, appModeId: string): Promise<string> {
  const [row] = await rows<{ app_id: string }>(
    tx,
    sql`
    SELECT a.id AS app_id FROM app a JOIN app_mode m ON m.app_id = a.id WHERE m.id = ${appModeId} FOR UPDATE OF a`,
  );
  if (!row) throw notFound('No such app.');
  return row.app_id;
}

/** The input as kept, or every problem with it, each naming its member. */
function checked(input: EndpointInput): { url?: string; topics?: string[]; description?: string | null } {
  const errors: FieldError[] = [];
  const out: { url?: string; topics?: string[]; description?: string | null } = {};
  if (input.url !== undefined) {
    const problem = urlProblem(input.url.trim());
    if (problem) errors.push({ field: 'url', message: problem });
    else out.url = new URL(input.url.trim()).href;
  }
  if (input.topics !== undefined) {
    if (!input.topics.length) errors.push({ field: 'topics', message: 'name at least one topic' });
    input.topics.forEach((topic, i) => {
      if (!isWebhookTopic(topic)) errors.push({ field: `topics.${i}`, message: `must be one of ${WEBHOOK_TOPICS.join(', ')}` });
    });
    out.topics = [...new Set(input.topics)];
  }
  if (input.description !== undefined) {
    const text = input.description?.trim() || null;
    if (text && text.length > MAX_WEBHOOK_DESCRIPTION)
      errors.push({ field: 'description', message: `must be at most ${MAX_WEBHOOK_DESCRIPTION} characters` });
    out.description = text;
  }
  if (errors.length) throw invalid(errors);
  return out;
}

/** Why an address cannot be an endpoint's, or undefined. Where it resolves to is checked at each post. */
function urlProblem(text: string): string | undefined {
  if (text.length > MAX_WEBHOOK_URL) return `must be at most ${MAX_WEBHOOK_URL} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an https address such as https://example.com/hooks/crm';
  }
  if (url.protocol !== 'https:') return 'must be an https address';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.hash) return 'must not carry a fragment (#…)';
  return undefined;
}
