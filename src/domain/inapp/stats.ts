import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import type { Ctx, TxCtx } from '../context.js';
import { liveTopic, type RowChange } from '../live-topic.js';
import { emit } from '../outbox.js';
import { rows, sql } from '../../db/sql.js';

// A message's statistics, per variant and the control group, and by day (UTC): people sent it
// (for the control group: people who would have been), and people who saw it, tapped in it,
// dismissed it, completed it and reached its goal. Each is a person counted once, from their
// receipt (test copies are never counted). Live: every count that grows is an `inapp.counted`
// row written with it, and a staff tool adds what each row says to the statistics it read once.

export const COUNTERS = ['sent', 'seen', 'clicked', 'dismissed', 'completed', 'goalReached'] as const;
export type Counter = (typeof COUNTERS)[number];
export type Counts = Record<Counter, number>;

export interface VariantStats extends Counts {
  variant: string;
  control: boolean;
}

export interface DayStats extends VariantStats {
  /** YYYY-MM-DD, UTC. */
  day: string;
}

export interface MessageStats {
  variants: VariantStats[];
  days: DayStats[];
}

/** One person counted once more. */
export interface Count {
  messageId: string;
  variant: string;
  control: boolean;
  counter: Counter;
  day: string;
}

export const INAPP_COUNTED = 'inapp.counted';

const zero = (): Counts => ({ sent: 0, seen: 0, clicked: 0, dismissed: 0, completed: 0, goalReached: 0 });

/** The statistics of several messages, read in one statement (a list of messages with their statistics). */
export async function statsOfMany(ctx: Ctx, messageIds: readonly string[]): Promise<Map<string, MessageStats>> {
  const found = await rows<{ message_id: string; day: string; variant: string; control: boolean; counter: Counter; n: number }>(
    ctx,
    sql`
    SELECT r.message_id, to_char(d.at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, r.variant, r.control, d.counter, count(*)::int AS n
    FROM inapp_receipt r
    CROSS JOIN LATERAL (VALUES ('sent', CASE WHEN r.control THEN r.assigned_at ELSE r.sent_at END), ('seen', r.seen_at), ('clicked', r.clicked_at),
      ('dismissed', r.dismissed_at), ('completed', r.completed_at), ('goalReached', r.goal_reached_at)) AS d(counter, at)
    WHERE r.message_id = ANY(${[...messageIds]}::text[]) AND d.at IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 2, 3`,
  );
  const all = new Map(messageIds.map((id) => [id, { variants: new Map<string, VariantStats>(), days: new Map<string, DayStats>() }]));
  for (const r of found) {
    const { variants, days } = all.get(r.message_id)!;
    const v = variants.get(r.variant) ?? { variant: r.variant, control: r.control, ...zero() };
    variants.set(r.variant, v);
    v[r.counter] += r.n;
    const key = `${r.day} ${r.variant}`;
    const d = days.get(key) ?? { day: r.day, variant: r.variant, control: r.control, ...zero() };
    days.set(key, d);
    d[r.counter] += r.n;
  }
  return new Map([...all].map(([id, s]) => [id, { variants: [...s.variants.values()], days: [...s.days.values()] }]));
}

export const statsOf = async (ctx: Ctx, messageId: string): Promise<MessageStats> => (await statsOfMany(ctx, [messageId])).get(messageId)!;

/** Tells live statistics of people counted, in the transaction that counted them. */
export async function counted(tx: TxCtx, appModeId: string, counts: Count[]): Promise<void> {
  if (counts.length) await emit(tx, INAPP_COUNTED, { appModeId, data: { counts } });
}

export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

export interface StatsEvent {
  version: string;
  reload: boolean;
  /** The statistics as they are (on reload). */
  stats: MessageStats | null;
  /** People counted since (otherwise), each once. */
  counts: Count[];
}

const countsOf = (row: OutboxRow) => (row.data as { counts: Count[] }).counts;

/** A message's statistics, then every count as it grows, from any server process, until the signal aborts. */
export async function* liveStats(
  ctx: Ctx,
  appModeId: string,
  messageId: string,
  opts: { after?: string | null; signal: AbortSignal },
): AsyncGenerator<StatsEvent> {
  for await (const event of liveTopic(ctx, INAPP_COUNTED, appModeId, { ...opts, read: (tx) => statsOf(tx, messageId), change: countsOf })) {
    if (event.reload) yield { version: event.version, reload: true, stats: event.state, counts: [] };
    else {
      const counts = event.change.filter((c) => c.messageId === messageId);
      if (counts.length) yield { version: event.version, reload: false, stats: null, counts };
    }
  }
}

export interface CountsEvent {
  version: string;
  /** Read again what you hold: counts may have been missed (the first event, and after a gap). */
  reload: boolean;
  /** People counted since, each once, for any message of the app-mode. */
  counts: Count[];
}

const noState = async () => null;
/** A row's counts as every subscriber of the list gets them, made once per row (see RowChange). */
const countsEventOf: RowChange<CountsEvent> = (row, version) => ({ version, reload: false, counts: countsOf(row) });

/**
 * Every person counted for any message of the app-mode, from any server process, in order, until
 * the signal aborts: one subscription for a list of messages (each count names its message). A
 * reload carries no statistics (an app-mode's are unbounded): the subscriber reads again those it shows.
 */
export async function* liveCounts(
  ctx: Ctx,
  appModeId: string,
  opts: { after?: string | null; signal: AbortSignal },
): AsyncGenerator<CountsEvent> {
  for await (const event of liveTopic(ctx, INAPP_COUNTED, appModeId, { ...opts, read: noState, change: countsEventOf }))
    yield event.reload ? { version: event.version, reload: true, counts: [] } : event.change;
}
