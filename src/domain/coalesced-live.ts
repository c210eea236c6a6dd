import type { CoalescedReads } from './coalesced-reads.js';
import type { Ctx } from './context.js';
import { liveTopic, type RowChange } from './live-topic.js';

// A live subscription whose answer is a costly read of one thing (a survey's results, a sending's
// progress) rather than the rows of its topic: the thing once, then the thing read again after the
// rows that name it, from any server process, resumable with `after` like every live topic
// (live-topic.ts). Under a flood of rows the cost stays bounded: the stream keeps only the newest row
// it has not answered for (the rows between fold into it), and the thing is read by one shared, paced
// read per key and server process (coalesced-reads.ts), each answering every subscriber of the key in
// the process that asked before it started. Each answer holds everything up to its version.

export interface CoalescedLive<T> {
  /** The topic whose rows tell of a change. */
  topic: string;
  appModeId: string;
  /** What is read: the key rows name (their `change`) and the reads are shared by. */
  key: string;
  /** The key a row names: a function of the module, made once per row and process (live-topic.ts). */
  change: RowChange<string>;
  /** The reads of this kind of thing in this process, shared and paced. */
  reads: CoalescedReads<string, T>;
  read: () => Promise<T>;
  after?: string | null;
  signal: AbortSignal;
}

/** One answer: the thing as read, at a version. One object per read, version and kind, so subscribers answered by one read share it (shared-events.ts). */
export interface CoalescedEvent<T> {
  version: string;
  /** The first answer (and after a gap). Every answer carries the whole thing: replace what you show. */
  reload: boolean;
  value: T;
}

const events = new WeakMap<object, Map<string, CoalescedEvent<unknown>>>();
function eventOf<T extends object>(value: T, version: string, reload: boolean): CoalescedEvent<T> {
  let byVersion = events.get(value);
  if (!byVersion) events.set(value, (byVersion = new Map()));
  const key = `${reload ? 'r' : 'c'}${version}`;
  let event = byVersion.get(key) as CoalescedEvent<T> | undefined;
  if (!event) byVersion.set(key, (event = { version, reload, value }));
  return event;
}

/** The thing, then the thing again after rows naming it (coalesced), until the signal aborts. */
export async function* coalescedLive<T extends object>(ctx: Ctx, opts: CoalescedLive<T>): AsyncGenerator<CoalescedEvent<T>> {
  // The topic's stream ends with this one, however this one ends.
  const stop = new AbortController();
  const signal = AbortSignal.any([opts.signal, stop.signal]);
  const noState = async () => null;
  const source = liveTopic<null, string>(ctx, opts.topic, opts.appModeId, {
    after: opts.after,
    signal,
    read: noState,
    change: opts.change,
  });
  // What the subscriber has not been answered for yet: the newest version, and whether it was a reload.
  let owed: { version: string; reload: boolean } | undefined;
  let failure: { error: unknown } | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  signal.addEventListener('abort', poke);
  // The topic is read on its own, so rows never wait behind a read: they fold into `owed`.
  const pump = (async () => {
    try {
      for await (const event of source) {
        if (event.reload) owed = { version: event.version, reload: true };
        else if (event.change === opts.key) owed = { version: event.version, reload: owed?.reload ?? false };
        else continue;
        poke();
      }
    } catch (error) {
      failure = { error };
    } finally {
      ended = true;
      poke();
    }
  })();
  try {
    for (;;) {
      if (failure) throw failure.error;
      if (signal.aborted || (ended && !owed)) return;
      if (!owed) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      const asked = owed;
      owed = undefined;
      const value = await opts.reads.latest(opts.key, opts.read);
      if (signal.aborted) return;
      yield eventOf(value, asked.version, asked.reload);
    }
  } finally {
    stop.abort();
    signal.removeEventListener('abort', poke);
    await pump;
  }
}
