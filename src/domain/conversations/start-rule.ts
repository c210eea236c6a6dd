import type { TxCtx } from '../context.js';
import { conflict } from '../errors.js';
import { startRuleOf } from './settings.js';

// Whether the person may start a conversation now, by the app-mode's start rule. Called with the
// person's contact row locked, so two starts at once cannot both find none open.

/** The refusal of a start where only the team starts conversations (rule `never`). */
export const startRefused = () => conflict('start_refused', 'This app does not let people start conversations; the team starts them.');

/** The person's newest conversation that is open or snoozed: what the `when_none_open` rule looks for. */
export const openConversationOf = (tx: TxCtx, appModeId: string, contactId: string) =>
  tx.db.conversation.findFirst({
    where: { appModeId, contactId, state: { in: ['open', 'snoozed'] } },
    select: { id: true },
    orderBy: { createdAt: 'desc' },
  });

export async function checkStartRule(tx: TxCtx, appModeId: string, contactId: string): Promise<void> {
  const rule = await startRuleOf(tx, appModeId);
  if (rule === 'never') throw startRefused();
  if (rule === 'when_none_open') {
    const open = await openConversationOf(tx, appModeId, contactId);
    if (open)
      throw conflict(
        'conversation_open',
        `This app lets a person start a conversation only while none of theirs is open; conversation ${open.id} is.`,
      );
  }
}
