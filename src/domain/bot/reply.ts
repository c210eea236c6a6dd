import { randomUUID } from 'node:crypto';
import type { ConversationPart } from '../../generated/prisma/client.js';
import { touchContact } from '../contacts/contacts.js';
import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { contactAuthor } from '../conversations/authors.js';
import { ownConversation } from '../conversations/conversations.js';
import { REPLIED, reopen } from '../conversations/messages.js';
import { addPart } from '../conversations/parts.js';
import { markReadTo } from '../conversations/read.js';
import { requireMessenger } from '../conversations/settings.js';
import { conflict, invalidField } from '../errors.js';
import { emit } from '../outbox.js';
import { botAuthor, botGoesOn, type Offered } from './turns.js';
import { checkValue } from './values.js';
import { exec, sql } from '../../db/sql.js';

// POST /conversations/{id}/bot: the person answers the bot's current question, by tapping one of
// its buttons or giving the value it asks for. The answer is the person's part; a value is kept in
// `collected` under the question's key; then the bot goes on (its next step, or the team). Only the
// part the bot waits on takes an answer, once: another part, a button it did not offer, a
// conversation the bot handed over or the team closed is 409.

export interface BotReply {
  partId: string;
  button?: string | null;
  value?: string | null;
}

export async function answerBot(ctx: Ctx<GuestCaller>, conversationId: string, reply: BotReply): Promise<ConversationPart> {
  requireMessenger(ctx);
  if (reply.button && reply.value != null) throw invalidField('value', 'must be left out when a button is tapped');
  const { appModeId, externalId, sdk } = ctx.caller;
  return transaction(ctx, async (tx) => {
    const { contact } = await touchContact(tx, externalId, { sdk });
    const own = await ownConversation(tx, conversationId);
    // Answers to one conversation are taken one at a time: of two at once, the second finds the question answered.
    await exec(tx, sql`SELECT 1 FROM conversation WHERE id = ${own.id} FOR UPDATE`);
    const conversation = await tx.db.conversation.findUniqueOrThrow({ where: { id: own.id } });
    if (conversation.handedOverAt)
      throw conflict('bot_handed_over', 'The bot handed this conversation to the team: write to them (POST …/messages).');
    if (conversation.botPartId !== reply.partId || conversation.state === 'closed') {
      throw conflict(
        'bot_question_stale',
        `Part ${reply.partId} is not the bot's current question in this conversation (bot_part_id names it; null when the bot waits for nothing).`,
      );
    }
    const asked = await tx.db.conversationPart.findFirstOrThrow({
      where: { id: reply.partId, conversationId: conversation.id, kind: 'bot' },
    });
    const offered = asked.data as unknown as Offered;

    let answer: { text: string; button: string | null; next: string; collect?: { key: string; value: string } };
    if (offered.question) {
      if (reply.button) throw conflict('bot_button_unknown', 'This part asks for a value (value), not a button.');
      const value = checkValue(offered.question.kind, reply.value ?? '');
      answer = { text: value, button: null, next: offered.question.next, collect: { key: offered.question.key, value } };
    } else {
      if (!reply.button) throw invalidField('button', "must name one of the part's buttons");
      const button = offered.buttons.find((b) => b.id === reply.button);
      if (!button)
        throw conflict(
          'bot_button_unknown',
          `The part offered no button ${reply.button} (it offered ${offered.buttons.map((b) => b.id).join(', ')}).`,
        );
      answer = { text: button.label, button: button.id, next: button.next };
    }

    const now = tx.clock.now();
    await tx.db.conversation.update({ where: { id: conversation.id }, data: { botPartId: null } });
    await reopen(tx, conversation);
    const said = await addPart(tx, conversation, {
      kind: 'message',
      author: contactAuthor(contact),
      text: answer.text,
      button: answer.button,
    });
    await markReadTo(tx, conversation, { kind: 'contact', id: contact.id }, said.seq);
    await emit(tx, REPLIED, { appModeId, externalId, data: { conversation_id: conversation.id, part_id: said.id } });
    if (answer.collect) {
      const { key, value } = answer.collect;
      await tx.db.collectedValue.upsert({
        where: { conversationId_key: { conversationId: conversation.id, key } },
        create: { id: randomUUID(), appModeId, conversationId: conversation.id, key, value, partId: asked.id, createdAt: now },
        update: { value, partId: asked.id, createdAt: now },
      });
    }
    await botGoesOn(tx, conversation, answer.next, await botAuthor(tx, appModeId));
    return said;
  });
}
