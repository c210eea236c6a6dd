import { randomUUID } from 'node:crypto';
import type { EmailVersion, Prisma } from '../../generated/prisma/client.js';
import { one, sql, type Sql } from '../../db/sql.js';
import { audienceSql, readAudience, type AudienceInput, type SendAudience } from '../audiences/send-audience.js';
import { transaction, type Ctx, type StaffCaller, type TxCtx } from '../context.js';
import { conflict, invalidField } from '../errors.js';
import { lock } from '../locks.js';
import { addressProblem } from '../mail/message.js';
import { emit } from '../outbox.js';
import { emailMessageIn } from './messages.js';
import { renderEmail } from './render.js';

// Sending an email: to an audience (one person, everyone with an address, or an attribute filter),
// or a test copy to a team member's address. Each sending freezes the message as it is now in a
// version of its own (rendered once: subject, HTML and text with a place for each person's links),
// so an edit later never changes an email already sent, and hands it to its durable process
// (workflows/processes/email-send) by the outbox row written with it: it goes out even when this
// server stops right after. The process fans out in steps (batch.ts).

/** The outbox topic that starts a sending's process. */
export const EMAIL_REQUESTED = 'email.requested';
/** Sendings and test copies of one email at most (each keeps its own version). */
export const MAX_VERSIONS = 1000;
/** Test copies an app-mode sends in an hour at most. */
export const MAX_TESTS_AN_HOUR = 50;

/**
 * The message as it is now, rendered: what a new version keeps (and what a preview shows). Read and
 * rendered before any lock is taken (MJML's first load takes a second).
 */
export async function renderedNow(ctx: Ctx, messageId: string) {
  const message = await emailMessageIn(ctx, messageId);
  const mode = await ctx.db.appMode.findUniqueOrThrow({ where: { id: message.appModeId } });
  const topic = message.topicId ? await ctx.db.preferenceTopic.findUnique({ where: { id: message.topicId } }) : null;
  if (message.topicId && (!topic || topic.archivedAt || !topic.channels.includes('email')))
    throw invalidField('topic', 'no longer goes by email (archived, or email taken off its channels): choose another topic or none');
  const rendered = await renderEmail({
    subject: message.subject,
    preheader: message.preheader,
    blocks: message.blocks,
    brand: { name: mode.brandName, color: mode.brandColor, logoUrl: mode.brandLogoUrl },
    language: mode.defaultLanguage,
    topic: topic ? { name: topic.name } : null,
  });
  return { message, rendered };
}

/** A new version of the message as rendered, numbered after the last. Under the app-mode's email lock. */
async function newVersion(
  tx: TxCtx,
  { message, rendered }: Awaited<ReturnType<typeof renderedNow>>,
  extra: { test: boolean; audience: SendAudience | null; people: number; sentBy: string },
): Promise<EmailVersion> {
  const { count, last } = (await one<{ count: number; last: number | null }>(
    tx,
    sql`SELECT count(*)::int AS count, max(number) AS last FROM email_version WHERE message_id = ${message.id}`,
  ))!;
  if (count >= MAX_VERSIONS)
    throw conflict('email_version_limit', `An email is sent at most ${MAX_VERSIONS} times (test copies included).`);
  return tx.db.emailVersion.create({
    data: {
      id: randomUUID(),
      messageId: message.id,
      appModeId: message.appModeId,
      number: (last ?? 0) + 1,
      subject: message.subject,
      preheader: message.preheader,
      html: rendered.html,
      text: rendered.text,
      links: rendered.links,
      topicId: message.topicId,
      fromName: message.fromName,
      fromAddress: message.fromAddress,
      replyTo: message.replyTo,
      test: extra.test,
      audience: (extra.audience ?? undefined) as Prisma.InputJsonValue | undefined,
      people: extra.people,
      sentBy: extra.sentBy,
      createdAt: tx.clock.now(),
    },
  });
}

/**
 * A workflow's sending of the email as rendered now (made when the workflow is published): its
 * people are those the workflow's runs reach, each sent to by the step (src/domain/workflows/email-step.ts),
 * so an edit of the email later never changes what a published workflow sends.
 */
export async function workflowSending(tx: TxCtx, rendered: Awaited<ReturnType<typeof renderedNow>>, sentBy: string): Promise<EmailVersion> {
  await lock(tx, 'email-messages', rendered.message.appModeId);
  return newVersion(tx, rendered, { test: false, audience: null, people: 0, sentBy });
}

/** The audience's people with an address now: how many a sending to it begins with (some may then be skipped). */
async function peopleWithAddress(ctx: Ctx, appModeId: string, audience: SendAudience): Promise<number> {
  const { people } = (await one<{ people: number }>(
    ctx,
    sql`SELECT count(*)::int AS people FROM contact k WHERE k.app_mode_id = ${appModeId} AND k.email IS NOT NULL AND ${audienceSql(audience)}`,
  ))!;
  return people;
}

/** How many people a sending to the audience would begin with now (what staff are asked to confirm); refused as sendEmailMessage refuses it. */
export async function countEmailAudience(ctx: Ctx, appModeId: string, input: AudienceInput): Promise<number> {
  return peopleWithAddress(ctx, appModeId, await readAudience(ctx, appModeId, input));
}

/** Sends the email to an audience: a new sending, whose process fans it out. */
export async function sendEmailMessage(ctx: Ctx<StaffCaller>, messageId: string, input: AudienceInput): Promise<EmailVersion> {
  const now = await renderedNow(ctx, messageId);
  const { appModeId } = now.message;
  const audience = await readAudience(ctx, appModeId, input);
  return transaction(ctx, async (tx) => {
    await lock(tx, 'email-messages', appModeId);
    const people = await peopleWithAddress(tx, appModeId, audience);
    const version = await newVersion(tx, now, { test: false, audience, people, sentBy: ctx.caller.staffUser.id });
    await emit(tx, EMAIL_REQUESTED, { appModeId, data: { version_id: version.id } });
    return version;
  });
}

/** Whether `address` is a member's of the workspace the app `appId` is in: where test copies, and test mode's workflow emails, may go. */
export const teamAddress = (appId: Sql, address: Sql): Sql => sql`EXISTS (
  SELECT 1 FROM app a JOIN membership ms ON ms.workspace_id = a.workspace_id JOIN staff_user u ON u.id = ms.staff_user_id
  WHERE a.id = ${appId} AND lower(u.email) = lower(${address}))`;

/**
 * Sends a test copy to a team member's address (the caller's own when none is given): only the
 * workspace's members' addresses, so the service never mails strangers on a staff member's word.
 * It counts nothing and changes no one's preferences; its links lead where they go.
 */
export async function sendTestEmail(ctx: Ctx<StaffCaller>, messageId: string, to?: string | null): Promise<EmailVersion> {
  const { appModeId } = await emailMessageIn(ctx, messageId);
  const address = (to ?? ctx.caller.staffUser.email).trim();
  const problem = addressProblem(address);
  if (problem) throw invalidField('to', problem);
  const member = await one<{ ok: boolean }>(
    ctx,
    sql`SELECT ${teamAddress(sql`m.app_id`, sql`${address}`)} AS ok FROM app_mode m WHERE m.id = ${appModeId}`,
  );
  if (!member?.ok) throw invalidField('to', "is not a team member's address: test copies go to the workspace's members only");
  const rendered = await renderedNow(ctx, messageId);
  return transaction(ctx, async (tx) => {
    await lock(tx, 'email-messages', appModeId);
    const now = tx.clock.now();
    const { recent } = (await one<{ recent: number }>(
      tx,
      sql`SELECT count(*)::int AS recent FROM email_version WHERE app_mode_id = ${appModeId} AND test AND created_at > ${new Date(now.getTime() - 3_600_000)}`,
    ))!;
    if (recent >= MAX_TESTS_AN_HOUR)
      throw conflict('email_test_limit', `An app-mode sends at most ${MAX_TESTS_AN_HOUR} test copies an hour; try again later.`);
    const version = await newVersion(tx, rendered, { test: true, audience: null, people: 0, sentBy: ctx.caller.staffUser.id });
    await tx.db.emailSend.create({
      data: { id: randomUUID(), appModeId, versionId: version.id, messageId, test: true, address, state: 'sending', createdAt: now },
    });
    await emit(tx, EMAIL_REQUESTED, { appModeId, data: { version_id: version.id } });
    return version;
  });
}
