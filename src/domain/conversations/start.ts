import { randomUUID } from 'node:crypto';
import type { Prisma } from '../../generated/prisma/client.js';
import { touchContact } from '../contacts/contacts.js';
import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { invalidField } from '../errors.js';
import { emit } from '../outbox.js';
import { tappedButton, type OpeningRef } from '../bot/openings.js';
import { botAuthor, botGoesOn } from '../bot/turns.js';
import { attachPictures } from './attachments.js';
import { contactAuthor } from './authors.js';
import { requireContent } from './content.js';
import { getConversation, type SeenConversation } from './conversations.js';
import { claimKey, fingerprintOf, settleKey, type KeyClaim } from './idempotency.js';
import { addPart } from './parts.js';
import { markReadTo } from './read.js';
import { checkStartRule } from './start-rule.js';
import { requireMessenger } from './settings.js';

// POST /conversations: the person starts a conversation with what they wrote (or the opening's
// button they tapped). The start rule may refuse it (409); an Idempotency-Key sent again answers
// the conversation the first request made.

export interface StartInput {
  text: string;
  attachmentIds: string[];
  /** The id of the opening's button tapped instead of writing. */
  button: string | null;
  opening: OpeningRef | null;
  idempotencyKey?: string;
}

export const STARTED = 'conversation.started';

export async function startConversation(ctx: Ctx<GuestCaller>, input: StartInput): Promise<SeenConversation> {
  requireMessenger(ctx);
  if (input.button) {
    if (input.text.trim() || input.attachmentIds.length)
      throw invalidField('button', 'must be empty when the person wrote (text or attachment_ids)');
  } else requireContent(input.text, input.attachmentIds);
  const { appModeId, externalId, sdk } = ctx.caller;
  return transaction(ctx, async (tx) => {
    // Locked: starts of one person are taken one at a time (the start rule, the same key at once).
    const { contact } = await touchContact(tx, externalId, { sdk, lock: true });
    const { idempotencyKey: key, ...request } = input;
    const claim: KeyClaim | undefined = key
      ? { contactId: contact.id, scope: 'start', key, fingerprint: fingerprintOf(request) }
      : undefined;
    const earlier = claim && (await claimKey(tx, appModeId, claim));
    if (earlier) return getConversation(tx, earlier);

    await checkStartRule(tx, appModeId, contact.id);
    // A button of an opening the app-mode has: the bot answers it at once (src/domain/bot).
    const tapped = input.button ? await tappedButton(tx, appModeId, input.opening, input.button) : null;
    const now = tx.clock.now();
    const conversation = await tx.db.conversation.create({
      data: {
        id: randomUUID(),
        appModeId,
        contactId: contact.id,
        state: 'open',
        lastActivityAt: now,
        visibleActivityAt: now,
        opening: (tapped?.opening ?? input.opening ?? undefined) as Prisma.InputJsonValue | undefined,
        button: input.button,
        createdAt: now,
        updatedAt: now,
      },
    });
    const text = tapped?.button.label ?? input.text;
    const part = await addPart(tx, conversation, {
      kind: 'message',
      author: contactAuthor(contact),
      text,
      attachmentIds: input.attachmentIds,
      button: input.button,
    });
    await attachPictures(tx, part, input.attachmentIds);
    await markReadTo(tx, conversation, { kind: 'contact', id: contact.id }, part.seq);
    await emit(tx, STARTED, { appModeId, externalId, data: { conversation_id: conversation.id, part_id: part.id } });
    if (tapped) await botGoesOn(tx, conversation, tapped.button.next, await botAuthor(tx, appModeId));
    if (claim) await settleKey(tx, appModeId, claim, conversation.id);
    return getConversation(tx, conversation.id);
  });
}
