import type { EmailVersion } from '../../generated/prisma/client.js';
import { retried } from '../../db/retried.js';
import { exec, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { MailNotSent } from '../mail/transport.js';
import { composeEmail, type Addressing } from './compose.js';
import { recordAnswers, type Answer } from './record.js';
import { MAX_TRIES, RETRY_WAITS_MS, WRITE_AT } from './schedule.js';
import { emailTokenKey } from './tokens.js';

// Handing a step's claimed emails to the mail server: `atOnce` in flight, a new one as soon as one is
// answered (never waiting for the slowest of a group). Each group of `atOnce` is marked posted while
// the group before it is handed over, so at most three times `atOnce` are marked and not yet answered
// at any moment; answers are written WRITE_AT at a time, one write after another, while the next go out.
// A mail server that cannot be reached stops the handing over: what was marked and not handed over
// is answered `unsent` (handed over by the next attempt), and the step fails.

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
  const write = () => {
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
      })
      .finally(() => inFlight.delete(going));
    inFlight.add(going);
  };
  // The next group is marked while this one is handed over, so no email waits for a mark.
  const mark = (group: Claimed[]) =>
    retried(() =>
      exec(ctx, sql`UPDATE email_send SET posted = true WHERE id = ANY(${group.map((c) => c.id)}::uuid[]) AND claim = ${claim}::uuid`),
    );
  const groups = Array.from({ length: Math.ceil(claimed.length / atOnce) }, (_, g) => claimed.slice(g * atOnce, (g + 1) * atOnce));
  let marked = groups.length ? mark(groups[0]!) : Promise.resolve(0);
  for (let g = 0; g < groups.length; g++) {
    await marked;
    if (g + 1 < groups.length) {
      marked = mark(groups[g + 1]!);
      marked.catch(() => undefined); // awaited at the next group
    }
    for (const c of groups[g]!) {
      while (inFlight.size >= atOnce) await Promise.race(inFlight);
      if (unreachable) answers.push({ id: c.id, state: 'unsent' });
      else one(c);
    }
    if (unreachable) {
      // The group marked ahead goes back unsent too.
      await marked.catch(() => undefined);
      for (const rest of groups.slice(g + 1)) for (const c of rest) answers.push({ id: c.id, state: 'unsent' });
      break;
    }
  }
  await Promise.all(inFlight);
  write();
  await writing;
  if (unreachable) throw unreachable;
}
