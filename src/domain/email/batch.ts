import { randomUUID } from 'node:crypto';
import type { EmailVersion } from '../../generated/prisma/client.js';
import { empty, exec, one, rows, sql, type Sql } from '../../db/sql.js';
import { audienceSql, type SendAudience } from '../audiences/send-audience.js';
import { retried } from '../../db/retried.js';
import { transaction, type Ctx } from '../context.js';
import { JOINS, WHY_NOT } from '../preferences/hears.js';
import { handOver, type Claimed } from './hand-over.js';
import { EMAILS_AT_ONCE, STEP_PEOPLE } from './schedule.js';
import { sendingProgressed } from './progress.js';
import { settleInterrupted } from './record.js';

// One step of a sending: the emails an earlier attempt claimed but never handed over, those the mail
// server put off that are due again, then the next page of the audience (STEP_PEOPLE people with an
// address, in contact order after the cursor). Each person's email is claimed by an email_send row
// before it goes (skipped people get their row with the reason), then handed over (hand-over.ts). A
// person claimed once is never claimed again by the sending, so a step run twice sends nothing twice;
// an email marked posted whose answer was never written (the server stopped) is counted as sent and
// not sent again (record.ts settleInterrupted). A mail server that cannot be reached ends the step
// (the process tries it again, then rests); one that refuses an address for good fails that email,
// and one that puts it off (4yz) tries it again later, MAX_TRIES times.

export interface EmailStepInput {
  /** The sending (its version's id). */
  sendId: string;
  /** The last contact id paged; null at the start. */
  after: string | null;
}

export interface EmailStepResult {
  after: string | null;
  finished: boolean;
  waitUntil: string | null;
}

export interface EmailStepOptions {
  stepPeople?: number;
  atOnce?: number;
}

export async function sendEmailBatch(ctx: Ctx, input: EmailStepInput, opts: EmailStepOptions = {}): Promise<EmailStepResult> {
  const size = opts.stepPeople ?? STEP_PEOPLE;
  const version = await retried(() => ctx.db.emailVersion.findUnique({ where: { id: input.sendId } }));
  if (!version || version.state !== 'sending') return { after: input.after, finished: true, waitUntil: null };
  const claim = randomUUID();
  const now = ctx.clock.now();
  await retried(() => settleInterrupted(ctx, version, claim));
  const carried = await retried(() => takeUp(ctx, version, claim, now, size));
  const page = version.test ? { people: [], after: null, done: true } : await retried(() => nextPage(ctx, version, input.after, size));
  // A person taken up above is claimed under this attempt's claim already, and claimPage answers such
  // a row again (as it does when the answer to its own statement was lost): hand each over once.
  const taken = new Set(carried.map((c) => c.id));
  const fresh = page.people.length
    ? (await retried(() => claimPage(ctx, version, page.people, claim, now))).filter((c) => !taken.has(c.id))
    : [];
  await handOver(ctx, version, claim, [...carried, ...fresh], opts.atOnce ?? EMAILS_AT_ONCE);
  if (!page.done) return { after: page.after, finished: false, waitUntil: null };
  return { after: page.after, ...(await retried(() => afterLastPage(ctx, version))) };
}

/** Emails of the sending claimed by an attempt that stopped before handing them over, and those put off now due: claimed for this one. */
async function takeUp(ctx: Ctx, version: EmailVersion, claim: string, now: Date, size: number): Promise<Claimed[]> {
  return rows<Claimed>(
    ctx,
    sql`
    WITH due AS (
      SELECT id FROM email_send WHERE version_id = ${version.id}
        AND ((state = 'sending' AND NOT posted) OR (state = 'retry' AND retry_at <= ${now}))
      ORDER BY id LIMIT ${size} FOR UPDATE SKIP LOCKED)
    UPDATE email_send s SET claim = ${claim}::uuid, state = 'sending', posted = false,
      tries = CASE WHEN s.state = 'retry' THEN s.tries + 1 ELSE s.tries END
    FROM due WHERE s.id = due.id
    RETURNING s.id::text, s.contact_id, s.address, s.tries`,
  );
}

interface Person {
  id: string;
  email: string;
  skip: string | null;
}

/**
 * The people `where` picks (a condition on the contact, `k`) who have an address, each with the
 * reason a sending of the topic (null: transactional mail) skips them now; none: it is sent.
 */
export function peopleSql(appModeId: string, topic: string | null, where: Sql): Sql {
  return sql`
    SELECT k.id, k.email,
      CASE WHEN sup.address IS NOT NULL THEN 'suppressed'
      ${topic ? sql`ELSE ${WHY_NOT}` : empty}
      END AS skip
    FROM contact k
    ${topic ? sql`LEFT JOIN preference_topic t ON t.id = ${topic} CROSS JOIN (SELECT 'email'::"PreferenceChannel" AS ch) x ${JOINS}` : empty}
    LEFT JOIN email_suppression sup ON sup.app_mode_id = k.app_mode_id AND sup.address = lower(k.email)
    WHERE k.app_mode_id = ${appModeId} AND k.email IS NOT NULL AND ${where}`;
}

/** The next people of the audience after `after` with an address, each with the reason they are skipped (none: sent). */
async function nextPage(ctx: Ctx, version: EmailVersion, after: string | null, size: number) {
  const found = await rows<Person>(
    ctx,
    sql`${peopleSql(version.appModeId, version.topicId, sql`k.id > ${after ?? ''} AND ${audienceSql(version.audience as SendAudience)}`)}
    ORDER BY k.id LIMIT ${size}`,
  );
  return { people: found, after: found.at(-1)?.id ?? after, done: found.length < size };
}

/**
 * Claims the page's people: a row each, to send or skipped with the reason. People the sending
 * claimed before (another attempt) are left out; those this attempt claimed already (the answer to
 * an earlier try of this statement was lost) are answered again.
 */
async function claimPage(ctx: Ctx, version: EmailVersion, people: Person[], claim: string, now: Date): Promise<Claimed[]> {
  return transaction(ctx, async (tx) => {
    const claimed = await rows<Claimed & { state: string }>(
      tx,
      sql`
    INSERT INTO email_send (id, app_mode_id, version_id, message_id, contact_id, address, state, reason, claim, tries, created_at)
    SELECT gen_random_uuid(), ${version.appModeId}, ${version.id}, ${version.messageId}, x.contact_id, x.address,
           CASE WHEN x.skip IS NULL THEN 'sending' ELSE 'skipped' END::"EmailSendState", x.skip, ${claim}::uuid,
           CASE WHEN x.skip IS NULL THEN 1 ELSE 0 END, ${now}
    FROM unnest(${people.map((p) => p.id)}::text[], ${people.map((p) => p.email)}::text[], ${people.map((p) => p.skip)}::text[])
      AS x(contact_id, address, skip)
    ON CONFLICT (version_id, contact_id) DO UPDATE SET claim = EXCLUDED.claim WHERE email_send.claim = EXCLUDED.claim
    RETURNING id::text, contact_id, address, tries, state::text`,
    );
    // People claimed (and some skipped): the sending's subscribers are told once it commits.
    if (claimed.length) await sendingProgressed(tx, version);
    return claimed.filter((c) => c.state === 'sending');
  });
}

/** Past the last page: wait for the next email put off; else the sending is done. */
async function afterLastPage(ctx: Ctx, version: EmailVersion): Promise<Omit<EmailStepResult, 'after'>> {
  const now = ctx.clock.now();
  const left = (await one<{ retry_at: Date | null; claimed: boolean }>(
    ctx,
    sql`
    SELECT min(retry_at) FILTER (WHERE state = 'retry') AS retry_at, coalesce(bool_or(state = 'sending'), false) AS claimed
    FROM email_send WHERE version_id = ${version.id} AND state IN ('retry', 'sending')`,
  ))!;
  if (left.claimed) return { finished: false, waitUntil: null };
  if (left.retry_at) return { finished: false, waitUntil: left.retry_at > now ? left.retry_at.toISOString() : null };
  await transaction(ctx, async (tx) => {
    const { count } = await tx.db.emailVersion.updateMany({
      where: { id: version.id, state: 'sending' },
      data: { state: 'done', finishedAt: now },
    });
    if (count) await sendingProgressed(tx, version);
  });
  return { finished: true, waitUntil: null };
}
