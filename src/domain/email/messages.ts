import { randomUUID } from 'node:crypto';
import type { EmailMessage, Prisma } from '../../generated/prisma/client.js';
import { textProblem } from '../../lib/text.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { conflict, invalid, notFound, type FieldError } from '../errors.js';
import { readBlocks } from '../help/blocks.js';
import { lock } from '../locks.js';
import { addressProblem } from '../mail/message.js';
import { MAX_TRACKED_LINKS, trackedLinkCount } from './render-blocks.js';

// The emails staff compose: a subject, the preview text mail clients show after it (preheader), a
// body of content blocks (the help center's, without formatting members; every link and picture an
// https address), a topic that goes by email (or none: transactional mail, which carries no
// unsubscribe), and the sender's name, address and reply-to. Each is checked when written, and a
// refusal names every bad field. What one sending sent is frozen apart (email_version), so a
// message may change after it was sent without changing any email already sent.

export const MAX_EMAIL_MESSAGES = 1000;
export const MAX_SUBJECT = 300;
export const MAX_PREHEADER = 300;
export const MAX_NAME = 200;
export const MAX_FROM_NAME = 100;

export interface EmailMessageInput {
  name?: string | null;
  subject?: string | null;
  preheader?: string | null;
  blocks?: unknown;
  /** A topic's key; null for transactional mail. */
  topic?: string | null;
  fromName?: string | null;
  fromAddress?: string | null;
  replyTo?: string | null;
}

const LINE_BREAK = /[\r\n]/;

function line(errors: FieldError[], field: string, value: string | null | undefined, max: number, required: boolean): string | undefined {
  if (value === undefined || value === null) {
    if (required) errors.push({ field, message: 'is required' });
    return undefined;
  }
  const text = value.trim();
  const problem =
    textProblem(text) ??
    (LINE_BREAK.test(text) ? 'must be one line' : undefined) ??
    (required && text === '' ? 'must not be empty' : undefined) ??
    (text.length > max ? `must be at most ${max} characters` : undefined);
  if (problem) errors.push({ field, message: problem });
  return text;
}

/** The fields to write, or a refusal naming every bad one. `creating`: subject and blocks are required. */
async function readInput(
  ctx: Ctx,
  appModeId: string,
  input: EmailMessageInput,
  creating: boolean,
): Promise<Prisma.EmailMessageUncheckedUpdateInput> {
  const errors: FieldError[] = [];
  const data: Prisma.EmailMessageUncheckedUpdateInput = {};
  const subject = line(errors, 'subject', input.subject, MAX_SUBJECT, creating || input.subject !== undefined);
  if (subject !== undefined) data.subject = subject;
  const name = line(errors, 'name', input.name, MAX_NAME, false);
  if (name) data.name = name;
  else if (creating && subject !== undefined) data.name = subject.slice(0, MAX_NAME);
  const preheader = line(errors, 'preheader', input.preheader, MAX_PREHEADER, false);
  if (input.preheader !== undefined) data.preheader = preheader ?? '';
  if (input.blocks !== undefined || creating) {
    const read = readBlocks(
      input.blocks,
      {
        formatting: false,
        imageUrl: (url) => (url.startsWith('https://') ? { url } : { problem: 'must be an https address' }),
        // A path in the product means nothing in a mailbox.
        link: (link) => (link.startsWith('/') ? 'must be an https address (an email has no product paths)' : undefined),
      },
      'blocks',
    );
    if ('errors' in read) errors.push(...read.errors);
    else if (trackedLinkCount(read.blocks) > MAX_TRACKED_LINKS)
      errors.push({ field: 'blocks', message: `must hold at most ${MAX_TRACKED_LINKS} links (each link of an email is tracked)` });
    else data.blocks = read.blocks as unknown as Prisma.InputJsonValue;
  }
  if (input.topic !== undefined) {
    if (input.topic === null) data.topicId = null;
    else {
      const topic = await ctx.db.preferenceTopic.findUnique({ where: { appModeId_key: { appModeId, key: input.topic } } });
      if (!topic || topic.archivedAt) errors.push({ field: 'topic', message: 'is not a topic of this app' });
      else if (!topic.channels.includes('email'))
        errors.push({ field: 'topic', message: `does not go by email (it goes by ${topic.channels.join(', ')})` });
      else data.topicId = topic.id;
    }
  }
  const fromName = line(errors, 'fromName', input.fromName, MAX_FROM_NAME, false);
  if (input.fromName !== undefined) data.fromName = fromName || null;
  for (const field of ['fromAddress', 'replyTo'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    const problem = value === null || value === '' ? undefined : addressProblem(value);
    if (problem) errors.push({ field, message: problem });
    else data[field] = value || null;
  }
  if (errors.length) throw invalid(errors);
  return data;
}

export async function emailMessageIn(ctx: Ctx, id: string): Promise<EmailMessage> {
  const found = await ctx.db.emailMessage.findUnique({ where: { id } });
  if (!found) throw notFound('No such email.');
  return found;
}

/** A new email of the app-mode (at most MAX_EMAIL_MESSAGES, held exactly under concurrency). */
export async function createEmailMessage(ctx: Ctx<StaffCaller>, appModeId: string, input: EmailMessageInput): Promise<EmailMessage> {
  const data = await readInput(ctx, appModeId, input, true);
  return transaction(ctx, async (tx) => {
    await lock(tx, 'email-messages', appModeId);
    if ((await tx.db.emailMessage.count({ where: { appModeId } })) >= MAX_EMAIL_MESSAGES)
      throw conflict('email_limit', `An app-mode has at most ${MAX_EMAIL_MESSAGES} emails; delete one never sent first.`);
    const now = tx.clock.now();
    return tx.db.emailMessage.create({
      data: { ...(data as Prisma.EmailMessageUncheckedCreateInput), id: randomUUID(), appModeId, createdAt: now, updatedAt: now },
    });
  });
}

/** Changes an email; what was already sent keeps its own version. */
export async function changeEmailMessage(ctx: Ctx<StaffCaller>, id: string, input: EmailMessageInput): Promise<EmailMessage> {
  const current = await emailMessageIn(ctx, id);
  const data = await readInput(ctx, current.appModeId, input, false);
  return ctx.db.emailMessage.update({ where: { id }, data: { ...data, updatedAt: ctx.clock.now() } });
}

/** Deletes an email never sent; one sent stays, since its emails' links lead through its versions. */
export async function deleteEmailMessage(ctx: Ctx<StaffCaller>, id: string): Promise<void> {
  await transaction(ctx, async (tx) => {
    await emailMessageIn(tx, id);
    if (await tx.db.emailVersion.findFirst({ where: { messageId: id }, select: { id: true } }))
      throw conflict('email_sent', 'An email that was sent stays: the links of the emails sent lead through it.');
    await tx.db.emailMessage.delete({ where: { id } });
  });
}
