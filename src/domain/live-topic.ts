import { parseVersion, seenBy, type OutboxRow } from '../db/outbox-dispatcher.js';
import { transaction, type Ctx, type TxCtx } from './context.js';
import { invalidField } from './errors.js';
import { one, sql } from '../db/sql.js';

// Every live subscription (app-mode settings, and those the areas add: conversations, parts,
// tickets, delivery logs) is this one piece over the outbox: the state once when the subscriber
// has nothing to resume from, then each change as its outbox row tells it, in outbox order, each
// once, with a version the subscriber names to resume after a reconnect. Nothing here reads the
// database per change: what a subscriber is told comes in the row, read once per process.

/** One step of a live subscription: the whole state (`reload`: drop what you had), or a change after the last one. */
export type LiveEvent<S, C> = { version: string; reload: true; state: S } | { version: string; reload: false; change: C };

/** What a row tells a subscriber: made once per process and row for every subscriber whose `change` is this same function. */
export type RowChange<C> = (row: OutboxRow, version: string) => C;

/**
 * A row's change event, made once per process for every subscriber whose `change` is the same
 * function: subscribers of one change then hold the same event and the same change (so a topic's
 * `change` makes the very answer its subscribers yield, version included), and the staff API runs
 * each answer once for all of them that asked the same thing with the same rights
 * (src/graphql/shared-events.ts).
 */
const changeEvents = new WeakMap<RowChange<unknown>, WeakMap<OutboxRow, LiveEvent<never, unknown>>>();

function changeEvent<C>(change: RowChange<C>, version: string, row: OutboxRow): LiveEvent<never, C> {
  let byRow = changeEvents.get(change);
  if (!byRow) changeEvents.set(change, (byRow = new WeakMap()));
  let event = byRow.get(row) as LiveEvent<never, C> | undefined;
  if (!event) byRow.set(row, (event = { version, reload: false, change: change(row, version) }));
  return event;
}

export async function* liveTopic<S, C>(
  ctx: Ctx,
  topic: string,
  appModeId: string,
  opts: {
    /** The last version the subscriber saw; null or left out for the state as it is now. */
    after?: string | null;
    signal: AbortSignal;
    /** The whole state, read when the subscriber has nothing (still kept) to resume from. */
    read: (tx: TxCtx) => Promise<S>;
    /** What a row of the topic tells the subscriber: a function of the module, not made per call, so its answers are shared. */
    change: RowChange<C>;
  },
): AsyncGenerator<LiveEvent<S, C>> {
  const resume = opts.after == null ? undefined : parseVersion(opts.after);
  if (opts.after != null && !resume) throw invalidField('after', 'must be a version this subscription sent');
  // Changes whose transaction the state's read already saw: sending them again would step back.
  let seen: (txId: bigint) => boolean = () => false;
  for await (const step of ctx.svc.outbox.follow(topic, appModeId, { after: resume, now: ctx.clock.now(), signal: opts.signal })) {
    if ('reload' in step) {
      const { state, snapshot } = await transaction(
        ctx,
        async (tx) => {
          const { snapshot } = (await one<{ snapshot: string }>(tx, sql`SELECT pg_current_snapshot()::text AS snapshot`))!;
          return { snapshot, state: await opts.read(tx) };
        },
        { isolationLevel: 'RepeatableRead' },
      );
      seen = seenBy(snapshot);
      yield { version: step.version, reload: true, state };
    } else if (!seen(step.row.txId)) yield changeEvent(opts.change, step.version, step.row);
  }
}
