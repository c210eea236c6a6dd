import type { WebhookTry } from '../../generated/prisma/client.js';
import type { Ctx } from '../context.js';
import { notFound } from '../errors.js';
import { liveTopic, type RowChange } from '../live-topic.js';
import { decodeCursor, pageOf, pageSize, type Page } from '../paging.js';
import { LOG_TRIES } from './schedule.js';

// An endpoint's tries, live: each try is logged with a `webhook.tried` outbox row in the same
// transaction (deliver.ts, logTry), which carries the try as the log keeps it (status, code,
// duration, time; never a body), so every server process tells its subscribers without reading
// the database. The row is of the endpoint's app-mode; a subscriber keeps its endpoint's.

/** Internal topic (not a webhook topic: it is never posted). */
export const WEBHOOK_TRIED = 'webhook.tried';

/** What a `webhook.tried` row carries: the try, times as text. */
export const triedRow = (t: WebhookTry): Record<string, unknown> => ({ ...t, at: t.at.toISOString() });

export interface TriesChange {
  /** Name it as `after` to resume from here. */
  version: string;
  /** The log as it is (the whole state), not a try after the last version named. */
  reload: boolean;
  /** On reload, the log as read: the last 50 tries, newest first. */
  log: WebhookTry[] | null;
  /** Otherwise, the one try just logged. */
  try: WebhookTry | null;
}

/** A page of a log as a reload read it, newest first: after the try the cursor names (its time and id). */
export function logPage(log: WebhookTry[], opts: { first?: number | null; after?: string | null }): Page<WebhookTry> {
  const size = pageSize(opts.first);
  let rows = log;
  if (opts.after) {
    const [at, id] = decodeCursor(opts.after, 'after', ['time', 'text']) as [string, string];
    const i = log.findIndex((t) => t.id === id);
    rows = i >= 0 ? log.slice(i + 1) : log.filter((t) => t.at.getTime() < Date.parse(at));
  }
  return pageOf(rows.slice(0, size + 1), size, (t) => [t.at.toISOString(), t.id]);
}

/** A row's try as subscribers get it, made once per row for all of a process's subscribers (see RowChange). */
const changeOf: RowChange<TriesChange & { try: WebhookTry }> = (row, version) => ({
  version,
  reload: false,
  log: null,
  try: { ...(row.data as unknown as WebhookTry), at: new Date(String(row.data.at)) },
});

/**
 * The endpoint's log as it is (or each try after the version `after` names), then each try as it
 * is logged by any server process, until the signal aborts.
 */
export async function* endpointTries(
  ctx: Ctx,
  endpointId: string,
  opts: { after?: string | null; signal: AbortSignal },
): AsyncGenerator<TriesChange> {
  const endpoint = await ctx.db.webhookEndpoint.findUnique({ where: { id: endpointId }, select: { appModeId: true } });
  if (!endpoint) throw notFound('No such webhook endpoint.');
  const read = (db: Ctx['db']) =>
    db.webhookTry.findMany({ where: { endpointId }, orderBy: [{ at: 'desc' }, { id: 'desc' }], take: LOG_TRIES });
  for await (const event of liveTopic(ctx, WEBHOOK_TRIED, endpoint.appModeId, { ...opts, read: (tx) => read(tx.db), change: changeOf })) {
    if (event.reload) yield { version: event.version, reload: true, log: event.state, try: null };
    else if (event.change.try.endpointId === endpointId) yield event.change;
  }
}
