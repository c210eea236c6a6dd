import type { EmailVersion } from '../../generated/prisma/client.js';
import { retried } from '../../db/retried.js';
import { exec, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { MailNotSent } from '../mail/transport.js';
import { composeEmail, type Addressing } from './compose.js';
import { recordAnswers, type Answer } from './record.js';
import { MARK_AT, MAX_TRIES, RETRY_WAITS_MS, WRITE_AT, WRITE_MS } from './schedule.js';
import { emailTokenKey } from './tokens.js';

// Handing a step's claimed emails to the mail server: `atOnce` in flight, new ones as soon as places
// are free (never waiting for the slowest of a group). Each email is marked posted just before it is
// handed over, MARK_AT or more at a time in one statement (as many as there are free places), so
// at no moment are more than `atOnce` marked and not yet answered: a kill leaves at most those,
// which the next step counts as sent (record.ts settleInterrupted), and the rest are sent by it.
// Answers are written WRITE_AT at a time (or WRITE_MS after the first of them waits), one write
// after another, while the next go out. A mail server that cannot be reached stops the handing over:
// what was marked and not handed over is answered `unsent` (handed over by the next attempt), and
// the step fails.

export interface Claimed {
  id: string;
  contact_id: string | null;
  address: string;
  tries: number;
}

/** What the mail server's answer (or its silence) makes of one email. */
function answerOf(c: Claimed, err: unknown, now: Date): Answer {
  const e = err instanceof MailNotSent ? err : new MailNotSent(String((err as Error)?.message ?? err), false);
  if (e.permanent) return { id: c.id, state: 'failed', reason: e.message };
  // Not reached at all: handed over again by the next attempt, not counted as a try.
  if (e.responseCode === undefined) return { id: c.id, state: 'unsent' };
  if (c.tries >= MAX_TRIES) return { id: c.id, state: 'failed', reason: e.message };
  const wait = RETRY_WAITS_MS[Math.min(c.tries, RETRY_WAITS_MS.length) - 1]!;
  return { id: c.id, state: 'retry', reason: e.message, retryAt: new Date(now.getTime() + wait) };
}

export async function handOver(ctx: Ctx, version: EmailVersion, claim: string, claimed: Claimed[], atOnce: number): Promise<void> {
  const at: Addressing = { key: emailTokenKey(ctx.svc), baseUrl: ctx.svc.config.baseUrl, defaultFrom: ctx.svc.mail.from };
  const answers: Answer[] = [];
  let writing: Promise<unknown> = Promise.resolve();
  let due: NodeJS.Timeout | undefined;
  const write = () => {
    clearTimeout(due);
    due = undefined;
    const batch = answers.splice(0);
    if (batch.length) writing = writing.then(() => retried(() => recordAnswers(ctx, version, claim, batch)));
  };
  let unreachable: MailNotSent | undefined;
  const inFlight = new Set<Promise<void>>();
  const one = (c: Claimed) => {
    const now = ctx.clock.now();
    const mail = composeEmail(version, { sendId: c.id, address: c.address }, at, now);
    const going: Promise<void> = ctx.svc.mail
      .send(mail)
      .then(
        (): Answer => ({ id: c.id, state: 'sent', mailMessageId: mail.mailMessageId }),
        (err: unknown) => {
          const answer = answerOf(c, err, now);
          if (answer.state === 'unsent') unreachable ??= err as MailNotSent;
          return answer;
        },
      )
      .then((answer) => {
        answers.push(answer);
        if (answers.length >= WRITE_AT) write();
        else due ??= setTimeout(write, WRITE_MS);
      })
      .finally(() => inFlight.delete(going));
    inFlight.add(going);
  };
  const mark = (group: Claimed[]) =>
    retried(() =>
      exec(ctx, sql`UPDATE email_send SET posted = true WHERE id = ANY(${group.map((c) => c.id)}::uuid[]) AND claim = ${claim}::uuid`),
    );
  try {
    let next = 0;
    while (next < claimed.length && !unreachable) {
      // Places for MARK_AT at least (or for all that are left): a statement marks them together.
      const want = Math.min(MARK_AT, atOnce, claimed.length - next);
      while (inFlight.size > atOnce - want) await Promise.race(inFlight);
      if (unreachable) break;
      const group = claimed.slice(next, next + atOnce - inFlight.size);
      next += group.length;
      await mark(group);
      // Marked while the server became unreachable: handed over by the next attempt.
      for (const c of group)
        if (unreachable) answers.push({ id: c.id, state: 'unsent' });
        else one(c);
    }
    for (const c of claimed.slice(next)) answers.push({ id: c.id, state: 'unsent' });
    await Promise.all(inFlight);
  } finally {
    clearTimeout(due);
  }
  write();
  await writing;
  if (unreachable) throw unreachable;
}
