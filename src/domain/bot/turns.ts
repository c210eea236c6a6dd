import type { Conversation, Prisma } from '../../generated/prisma/client.js';
import type { TxCtx } from '../context.js';
import type { Author } from '../conversations/authors.js';
import { addPart } from '../conversations/parts.js';
import { plainTextOf, type ContentBlock } from '../help/blocks.js';
import { HANDOVER, type BotButton, type BotQuestion } from './graph.js';

// The bot's turn: it says a step (a bot part through addPart, so long polls and the inbox hear
// it) and then waits for the person's answer to its buttons or question, or hands the
// conversation to the team. Always inside the caller's transaction.

/** What a bot part offered, kept with the part: the person's answer is judged by it, whatever staff saved since. */
export interface Offered {
  step: string;
  buttons: BotButton[];
  question: Pick<BotQuestion, 'kind' | 'key' | 'next'> | null;
}

/** The default name of a bot whose app-mode never saved one. */
export const BOT_NAME = 'Bot';

/** The app-mode's bot as the author of its parts. */
export async function botAuthor(tx: TxCtx, appModeId: string): Promise<Author> {
  const bot = await tx.db.helpBot.findUnique({ where: { appModeId }, select: { name: true } });
  return { kind: 'bot', id: null, name: bot?.name ?? BOT_NAME };
}

type Target = Pick<Conversation, 'id' | 'appModeId'>;

/** The bot goes on to a step (or hands over). A step no longer in the graph hands over too: the team takes it from there. */
export async function botGoesOn(tx: TxCtx, conversation: Target, next: string, bot: Author): Promise<void> {
  const step =
    next === HANDOVER
      ? null
      : await tx.db.botStep.findUnique({ where: { appModeId_key: { appModeId: conversation.appModeId, key: next } } });
  if (!step) return handOver(tx, conversation, bot, null);
  const blocks = step.blocks as unknown as ContentBlock[];
  const offered: Offered = {
    step: step.key,
    buttons: step.buttons as unknown as BotButton[],
    question: step.question as unknown as BotQuestion | null,
  };
  const part = blocks.length
    ? await addPart(tx, conversation, {
        kind: 'bot',
        author: bot,
        text: plainTextOf(blocks),
        blocks: blocks as unknown as Prisma.InputJsonValue[],
        data: offered as unknown as Prisma.InputJsonValue,
      })
    : undefined;
  const handover = step.handover as { teamId: string | null } | null;
  if (handover || !part) return handOver(tx, conversation, bot, handover?.teamId ?? null);
  await tx.db.conversation.update({ where: { id: conversation.id }, data: { botPartId: part.id } });
}

/**
 * The bot's turn ends: the conversation goes to the team (to one team when the step names it and
 * it still exists), with a line the person sees. The bot says nothing more in it.
 */
export async function handOver(tx: TxCtx, conversation: Target, bot: Author, teamId: string | null): Promise<void> {
  const team = teamId ? await tx.db.team.findUnique({ where: { id: teamId }, select: { id: true } }) : null;
  await tx.db.conversation.update({
    where: { id: conversation.id },
    data: { botPartId: null, handedOverAt: tx.clock.now(), ...(team ? { teamId: team.id } : {}) },
  });
  await addPart(tx, conversation, {
    kind: 'event',
    event: 'handed_over',
    author: bot,
    text: `${bot.name} handed the conversation to the team`,
    data: { team_id: team?.id ?? null },
    preview: null,
  });
}
