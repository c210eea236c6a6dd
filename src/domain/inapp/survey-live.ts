import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import { coalescedLive, type CoalescedEvent } from '../coalesced-live.js';
import { CoalescedReads } from '../coalesced-reads.js';
import type { Ctx, TxCtx } from '../context.js';
import type { RowChange } from '../live-topic.js';
import { emit } from '../outbox.js';
import type { VariantResults } from '../surveys/results.js';
import { surveyResults } from './survey-results.js';

// A survey's results live, for staff (the subscription surveyResultsChanged): each answer or submit
// of a response (not a test copy's) writes a `survey.answered` outbox row in its transaction,
// naming the survey and no person; a subscriber gets the results once, then the results again after
// answers, from any server process, resumable with `after` like every live topic (live-topic.ts).
// Under a flood of answers the cost stays bounded (coalesced-live.ts): a subscriber's stream keeps
// only the newest row it has not been answered for, and the results are read by one shared, paced
// read per survey and server process (coalesced-reads.ts): at most one read a second
// (RESULTS_EVERY_MS), one at a time, each answering every subscriber of the survey in the process
// that asked before it started. Each answer holds everything up to its version.

export const SURVEY_ANSWERED = 'survey.answered';

/** At most one read of a survey's results a second per server process, whatever the number of answers and subscribers. */
export const RESULTS_EVERY_MS = 1000;

/** The results as they are now (`value`): every answer carries the whole results, replace what you show. */
export type SurveyResultsEvent = CoalescedEvent<VariantResults[]>;

/** Tells live results of an answer or submit, in its transaction (not for a test copy: its answers are not results). */
export async function surveyAnswered(tx: TxCtx, appModeId: string, messageId: string, submitted: boolean): Promise<void> {
  await emit(tx, SURVEY_ANSWERED, { appModeId, data: { message_id: messageId, submitted } });
}

/** The survey a row names: made once per row and process for every subscriber (live-topic.ts). */
const surveyOf: RowChange<string> = (row: OutboxRow) => String(row.data.message_id);

const reads = new CoalescedReads<string, VariantResults[]>(RESULTS_EVERY_MS);

/** The survey's results, then the results again after answers (coalesced), until the signal aborts. */
export function liveSurveyResults(
  ctx: Ctx,
  appModeId: string,
  messageId: string,
  opts: { after?: string | null; signal: AbortSignal },
): AsyncGenerator<SurveyResultsEvent> {
  return coalescedLive(ctx, {
    topic: SURVEY_ANSWERED,
    appModeId,
    key: messageId,
    change: surveyOf,
    reads,
    read: () => surveyResults(ctx, messageId),
    ...opts,
  });
}
