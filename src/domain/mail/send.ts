import { randomUUID } from 'node:crypto';
import { inTransaction, type Ctx } from '../context.js';
import { messageIdDomain } from '../../lib/mail-domain.js';
import { checkMessage, type MailMessage } from './message.js';

// sendMail is the service's one way to send mail. It waits for the transport: over SMTP, for the
// server's answer, so a request should not call it (a durable process step should, and retries it
// when it rejects with MailNotSent). Inside a transaction, the record commits or rolls back with it,
// but mail handed to an SMTP server is gone whatever happens after.

/** Sends the message and keeps its record; answers the record's id. Refuses a bad message (invalid_request, naming the field). */
export async function sendMail(ctx: Ctx, message: MailMessage): Promise<{ id: string }> {
  const mail = checkMessage(message);
  const transport = ctx.svc.mail;
  if (mail.idempotencyKey !== undefined) {
    const sent = await ctx.db.outgoingMail.findUnique({ where: { idempotencyKey: mail.idempotencyKey }, select: { id: true } });
    if (sent) return sent;
  }
  const id = randomUUID();
  const messageId = `<${id}@${messageIdDomain(transport.from)}>`;
  const now = ctx.clock.now();
  await transport.send({
    from: transport.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: mail.headers,
    messageId,
    date: now,
  });
  // Sent over SMTP, the record says that it went and to whom, not what it said.
  const kept = transport.via === 'kept';
  try {
    await ctx.db.outgoingMail.create({
      data: {
        id,
        workspaceId: mail.workspaceId ?? null,
        kind: mail.kind,
        via: transport.via,
        fromAddress: transport.from,
        subject: mail.subject,
        text: kept ? mail.text : null,
        html: kept ? (mail.html ?? null) : null,
        headers: kept && mail.headers.length ? mail.headers.map(({ name, value }) => ({ name, value })) : undefined,
        messageId,
        idempotencyKey: mail.idempotencyKey ?? null,
        createdAt: now,
        recipients: { create: mail.to.map((email, position) => ({ email, position })) },
      },
    });
  } catch (err) {
    // Two sends with one key at once: the other's record stands. (In a transaction, the failed
    // insert ended it: the caller tries again.)
    const first =
      mail.idempotencyKey === undefined || inTransaction(ctx)
        ? null
        : await ctx.db.outgoingMail.findUnique({ where: { idempotencyKey: mail.idempotencyKey }, select: { id: true } });
    if (first) return first;
    throw err;
  }
  return { id };
}
