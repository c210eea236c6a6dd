import { randomUUID } from 'node:crypto';
import type { Notice, NoticeSource } from '../../generated/prisma/client.js';
import { textProblem } from '../../lib/text.js';
import type { TxCtx } from '../context.js';
import { invalid, type FieldError } from '../errors.js';
import { exec, sql } from '../../db/sql.js';

// A notice is a card in a person's inbox (GET /guest/v1/notices). Every push sent adds one; staff
// may post one without a push. Adding takes the sender's own key (a push send's id) so that a
// process step run twice adds the notice once.

export const MAX_NOTICE_TITLE = 200;
export const MAX_NOTICE_BODY = 2_000;
export const MAX_NOTICE_LINK = 2_000;

export interface NoticeContent {
  title: string;
  body?: string | null;
  /** A path in the app (a deep link, `/orders/12`) or an https URL. */
  link?: string | null;
}

export interface NewNotice extends NoticeContent {
  /** A contact of the app-mode the notice is added in. */
  contactId: string;
  topicKey?: string | null;
  source: NoticeSource;
  /** The same key for the same person is kept once. */
  sendKey?: string | null;
  /** The team member who posted or sent it. */
  postedBy?: string | null;
}

/** Every problem of a notice's content, each naming its field (`title`, `body`, `link`). */
export function noticeProblems(n: NoticeContent): FieldError[] {
  const errors: FieldError[] = [];
  const text = (field: string, value: string | null | undefined, max: number, min: number) => {
    if (value === undefined || value === null) return;
    const problem =
      textProblem(value) ?? (value.trim().length < min || value.length > max ? `must be ${min} to ${max} characters` : undefined);
    if (problem) errors.push({ field, message: problem });
  };
  text('title', n.title, MAX_NOTICE_TITLE, 1);
  text('body', n.body, MAX_NOTICE_BODY, 0);
  if (n.link !== undefined && n.link !== null) {
    const https = URL.canParse(n.link) && new URL(n.link).protocol === 'https:';
    const path = /^\/[^\s\\]*$/.test(n.link) && !n.link.startsWith('//');
    if (n.link.length > MAX_NOTICE_LINK || !(https || path))
      errors.push({
        field: 'link',
        message: `must be a path in the app (/orders/12) or an https URL, at most ${MAX_NOTICE_LINK} characters`,
      });
  }
  return errors;
}

const rowOf = (appModeId: string, n: NewNotice, now: Date) => ({
  id: randomUUID(),
  appModeId,
  contactId: n.contactId,
  title: n.title,
  body: n.body || null,
  link: n.link || null,
  topicKey: n.topicKey ?? null,
  source: n.source,
  sendKey: n.sendKey ?? null,
  postedBy: n.postedBy ?? null,
  createdAt: now,
});

/**
 * Adds notices for contacts of the app-mode in the caller's transaction (the batch form, one insert
 * for a sender's batch); a notice whose send key the person already has is left out. Refuses the
 * batch when a notice's content is bad, naming `<index>.<field>`. Answers how many were added.
 */
export async function addNotices(tx: TxCtx, appModeId: string, notices: NewNotice[]): Promise<number> {
  const errors = notices.flatMap((n, i) => noticeProblems(n).map((e) => ({ ...e, field: `${i}.${e.field}` })));
  if (errors.length) throw invalid(errors);
  if (!notices.length) return 0;
  const rows = notices.map((n) => rowOf(appModeId, n, tx.clock.now()));
  const column = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
  // Arrays of columns rather than a row of parameters each: a sender's batch of hundreds in one short statement.
  return exec(
    tx,
    sql`
    INSERT INTO notice (id, app_mode_id, contact_id, title, body, link, topic_key, source, send_key, posted_by, created_at)
    SELECT x.id, ${appModeId}, x.contact_id, x.title, x.body, x.link, x.topic_key, x.source::"NoticeSource", x.send_key, x.posted_by, ${rows[0]!.createdAt}
    FROM unnest(${column('id')}::text[], ${column('contactId')}::text[], ${column('title')}::text[], ${column('body')}::text[], ${column('link')}::text[],
                ${column('topicKey')}::text[], ${column('source')}::text[], ${column('sendKey')}::text[], ${column('postedBy')}::text[])
      AS x(id, contact_id, title, body, link, topic_key, source, send_key, posted_by)
    ON CONFLICT DO NOTHING`,
    { prepare: true },
  );
}

/** Adds one notice (refused naming `title`, `body` or `link`); with a send key the person already has, answers the notice kept the first time. */
export async function addNotice(tx: TxCtx, appModeId: string, notice: NewNotice): Promise<Notice> {
  const errors = noticeProblems(notice);
  if (errors.length) throw invalid(errors);
  const row = rowOf(appModeId, notice, tx.clock.now());
  await tx.db.notice.createMany({ data: [row], skipDuplicates: true });
  return (
    (await tx.db.notice.findUnique({ where: { id: row.id } })) ??
    tx.db.notice.findFirstOrThrow({ where: { appModeId, contactId: notice.contactId, sendKey: notice.sendKey! } })
  );
}
