import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import { CoalescedReads } from '../coalesced-reads.js';
import type { Ctx, TxCtx } from '../context.js';
import { liveTopic, type RowChange } from '../live-topic.js';
import { emit } from '../outbox.js';
import type { VariantResults } from '../surveys/results.js';
import { surveyResults } from './survey-results.js';

// A survey's results live, for staff (the subscription surveyResultsChanged): each answer or submit
// of a response (not a test copy's) writes a `survey.answered` outbox row in its transaction,
// naming the survey and no person; a subscriber gets the results once, then the results again after
// answers, from any server process, resumable with `after` like every live topic (live-topic.ts).
// Under a flood of answers the cost stays bounded: a subscriber's stream keeps only the newest row
// it has not been answered for (the rows between fold into it), and the results are read by one
// shared, paced read per survey and server process (coalesced-reads.ts): at most one read a
// second (RESULTS_EVERY_MS), one at a time, each answering every subscriber of the survey in the
// process that asked before it started. Each answer holds everything up to its version.

export const SURVEY_ANSWERED = 'survey.answered';

/** At most one read of a survey's results a second per server process, whatever the number of answers and subscribers. */
export const RESULTS_EVERY_MS = 1000;

export interface SurveyResultsEvent {
  version: string;
  /** The first answer (and after a gap): the results as they are. Every answer carries the whole results: replace what you show. */
  reload: boolean;
  results: VariantResults[];
}

/** Tells live results of an answer or submit, in its transaction (not for a test copy: its answers are not results). */
export async function surveyAnswered(tx: TxCtx, appModeId: string, messageId: string, submitted: boolean): Promise<void> {
  await emit(tx, SURVEY_ANSWERED, { appModeId, data: { message_id: messageId, submitted } });
}

/** The survey a row names: made once per row and process for every subscriber (live-topic.ts). */
const surveyOf: RowChange<string> = (row: OutboxRow) => String(row.data.message_id);
const noState = async () => null;

const reads = new CoalescedReads<string, VariantResults[]>(RESULTS_EVERY_MS);

/** One event object per read and version, so subscribers answered by one read at one version share the answer (shared-events.ts). */
const events = new WeakMap<VariantResults[], Map<string, SurveyResultsEvent>>();
function eventOf(results: VariantResults[], version: string, reload: boolean): SurveyResultsEvent {
  let byVersion = events.get(results);
  if (!byVersion) events.set(results, (byVersion = new Map()));
  const key = `${reload ? 'r' : 'c'}${version}`;
  let event = byVersion.get(key);
  if (!event) byVersion.set(key, (event = { version, reload, results }));
  return event;
}

/** The survey's results, then the results again after answers (coalesced), until the signal aborts. */
export async function* liveSurveyResults(
  ctx: Ctx,
  appModeId: string,
  messageId: string,
  opts: { after?: string | null; signal: AbortSignal },
): AsyncGenerator<SurveyResultsEvent> {
  // The topic's stream ends with this one, however this one ends.
  const stop = new AbortController();
  const signal = AbortSignal.any([opts.signal, stop.signal]);
  const source = liveTopic<null, string>(ctx, SURVEY_ANSWERED, appModeId, { after: opts.after, signal, read: noState, change: surveyOf });
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
  // The topic is read on its own, so rows never wait behind a read of the results: they fold into `owed`.
  const pump = (async () => {
    try {
      for await (const event of source) {
        if (event.reload) owed = { version: event.version, reload: true };
        else if (event.change === messageId) owed = { version: event.version, reload: owed?.reload ?? false };
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
      const results = await reads.latest(messageId, () => surveyResults(ctx, messageId));
      if (signal.aborted) return;
      yield eventOf(results, asked.version, asked.reload);
    }
  } finally {
    stop.abort();
    signal.removeEventListener('abort', poke);
    await pump;
  }
}
