import { randomUUID } from 'node:crypto';
import type { InAppTestPhone, InAppTestSend, Prisma } from '../../generated/prisma/client.js';
import type { Ctx, StaffCaller } from '../context.js';
import { conflict, invalidField, notFound } from '../errors.js';
import type { Variant } from './message-input.js';
import { messageIn } from './messages.js';

// Test phones and test copies. Staff mark people (their own phones, signed in to the app) as test
// phones; a test copy of a message, in any state, goes to one of them: it is answered at that
// person's next check-in with the Test flag, whatever the message's audience, schedule, caps and
// the person's preferences say. Its receipts are kept with it (the export's testSends) and never
// counted in a message's statistics nor posted to webhooks.

async function contactOf(ctx: Ctx, appModeId: string, externalId: string) {
  const contact = await ctx.db.contact.findUnique({ where: { appModeId_externalId: { appModeId, externalId } }, select: { id: true } });
  if (!contact) throw notFound('No such person in this app.');
  return contact;
}

export async function markTestPhone(ctx: Ctx<StaffCaller>, appModeId: string, externalId: string, label = ''): Promise<InAppTestPhone> {
  if (label.length > 100) throw invalidField('label', 'must be at most 100 characters');
  const { id: contactId } = await contactOf(ctx, appModeId, externalId);
  return ctx.db.inAppTestPhone.upsert({
    where: { contactId },
    create: { contactId, appModeId, externalId, label: label.trim(), createdAt: ctx.clock.now() },
    update: { label: label.trim() },
  });
}

export async function unmarkTestPhone(ctx: Ctx<StaffCaller>, appModeId: string, externalId: string): Promise<boolean> {
  const { count } = await ctx.db.inAppTestPhone.deleteMany({ where: { appModeId, externalId } });
  return count > 0;
}

/** A test copy of one variant (the first when left out) for a test phone's next check-in. */
export async function sendTestCopy(ctx: Ctx<StaffCaller>, messageId: string, externalId: string, variant?: string): Promise<InAppTestSend> {
  const message = await messageIn(ctx, messageId);
  const phone = await ctx.db.inAppTestPhone.findFirst({ where: { appModeId: message.appModeId, externalId } });
  if (!phone) throw conflict('not_test_phone', 'Mark the person as a test phone first: test copies go to test phones only.');
  const variants = message.variants as unknown as Variant[];
  const chosen = variant === undefined ? variants[0] : variants.find((v) => v.key === variant);
  if (!chosen) throw invalidField('variant', 'names no variant of this message');
  return ctx.db.inAppTestSend.create({
    data: {
      id: randomUUID(),
      appModeId: message.appModeId,
      contactId: phone.contactId,
      externalId,
      messageId,
      kind: message.kind,
      variant: chosen.key,
      content: chosen.content as Prisma.InputJsonObject,
      screens: message.screens,
      sentBy: ctx.caller.staffUser.id,
      createdAt: ctx.clock.now(),
    },
  });
}
