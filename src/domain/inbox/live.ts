import type { Conversation, ConversationPart } from '../../generated/prisma/client.js';
import type { Ctx, TxCtx } from '../context.js';
import { liveTopic, type RowChange } from '../live-topic.js';
import { emit } from '../outbox.js';

// The staff inbox, live: every change to a conversation (a new one, a part of any kind, a change of
// state, snooze or assignee, each of which adds a part) is an `inbox.changed` row written with the
// change, carrying the conversation and the part as the change left them. Staff tools of every
// server process hear it in order, once, without a read per subscriber; internal notes included,
// as every member who reads the app-mode may see them. An internal topic, never posted to webhooks.

export const INBOX_CHANGED = 'inbox.changed';

export interface InboxChange {
  /** Name it as `after` to resume from here. */
  version: string;
  /** The subscriber had nothing to resume from (or too old a version): read the lists again. */
  reload: boolean;
  /** The conversation as the change left it (null on reload). */
  conversation: Conversation | null;
  /** The part the change added (null on reload). */
  part: ConversationPart | null;
}

const DATES_OF_CONVERSATION = [
  'snoozedUntil',
  'ratedAt',
  'lastActivityAt',
  'visibleActivityAt',
  'createdAt',
  'updatedAt',
  'closedAt',
] as const;

const json = (row: object, dates: readonly string[]) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, dates.includes(k) && v instanceof Date ? v.toISOString() : v]));
const revive = <T>(data: Record<string, unknown>, dates: readonly string[]) =>
  Object.fromEntries(Object.entries(data).map(([k, v]) => [k, dates.includes(k) && typeof v === 'string' ? new Date(v) : v])) as T;

/**
 * Tells the inbox of a change, in the change's transaction: the conversation as it now is and the
 * part added. The row names the person, so erasing them removes it with their other rows.
 */
export async function inboxChanged(tx: TxCtx, conversation: Conversation, part: ConversationPart, externalId: string): Promise<void> {
  await emit(tx, INBOX_CHANGED, {
    appModeId: conversation.appModeId,
    externalId,
    data: { conversation: json(conversation, DATES_OF_CONVERSATION), part: json(part, ['createdAt']) },
  });
}

/** What a row tells, made once per process for every subscriber (see RowChange). */
const changeOf: RowChange<InboxChange & { conversation: Conversation }> = (row, version) => {
  const data = row.data as { conversation: Record<string, unknown>; part: Record<string, unknown> };
  return {
    version,
    reload: false,
    conversation: revive(data.conversation, DATES_OF_CONVERSATION),
    part: revive(data.part, ['createdAt']),
  };
};

/**
 * The app-mode's conversation changes as they commit, on any server process (only those of one
 * conversation when `conversationId` is given): first a reload (or, with `after`, each change since
 * that version), then each change, until the signal is aborted.
 */
export async function* inboxChanges(
  ctx: Ctx,
  appModeId: string,
  opts: { after?: string | null; signal: AbortSignal; conversationId?: string },
): AsyncGenerator<InboxChange> {
  for await (const event of liveTopic(ctx, INBOX_CHANGED, appModeId, {
    after: opts.after,
    signal: opts.signal,
    read: async () => null,
    change: changeOf,
  })) {
    if (event.reload) {
      yield { version: event.version, reload: true, conversation: null, part: null };
      continue;
    }
    if (!opts.conversationId || event.change.conversation.id === opts.conversationId) yield event.change;
  }
}
