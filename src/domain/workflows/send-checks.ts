import type { Ctx } from '../context.js';
import { renderedNow } from '../email/sending.js';
import { DomainError, invalid, type FieldError } from '../errors.js';
import { noticeProblems } from '../notices/add.js';
import { payloadProblems } from '../push/payload.js';
import type { WorkflowGraph } from './definition.js';

// What publishing checks of a version's send steps beyond their form (definition.ts): what the
// app-mode holds (topics and the channels they go by, its emails) and what the providers take
// (a push's size), each problem naming its member under `definition`.

/**
 * What a version's send steps could not send, each naming its member: an in-app message not of the
 * app-mode, a topic that is not the app-mode's or does not go by the step's channel (the inbox is
 * in-app), words the notice's rules refuse, a push too large for a provider.
 */
export async function sendProblems(ctx: Ctx, appModeId: string, w: WorkflowGraph): Promise<FieldError[]> {
  const sends = w.steps.flatMap((s, i) => (s.kind === 'send' ? [{ s, at: `definition.steps.${i}` }] : []));
  if (!sends.length) return [];
  const topics = await ctx.db.preferenceTopic.findMany({ where: { appModeId, archivedAt: null }, select: { key: true, channels: true } });
  const inApp = sends.flatMap(({ s }) => (s.channel === 'inapp' ? [s.messageId] : []));
  const messages = new Set(
    inApp.length
      ? (await ctx.db.inAppMessage.findMany({ where: { appModeId, id: { in: inApp } }, select: { id: true } })).map((m) => m.id)
      : [],
  );
  return sends.flatMap(({ s, at }) => {
    if (s.channel === 'inapp')
      return messages.has(s.messageId) ? [] : [{ field: `${at}.messageId`, message: 'is not an in-app message of this app' }];
    if (!('content' in s)) return [];
    const problems = noticeProblems(s.content).map((e) => ({ field: `${at}.content.${e.field}`, message: e.message }));
    if (s.channel === 'push' && !problems.length)
      // The push's own id is the visit's key (run, step, visit), never longer than this.
      problems.push(
        ...payloadProblems({
          sendId: 'x'.repeat(96),
          title: s.content.title,
          body: s.content.body ?? null,
          link: s.content.link ?? null,
        }).map((e) => ({ field: `${at}.content.${e.field}`, message: e.message })),
      );
    if (s.topic !== undefined) {
      const channel = s.channel === 'push' ? 'push' : 'in_app';
      const topic = topics.find((t) => t.key === s.topic);
      if (!topic) problems.push({ field: `${at}.topic`, message: 'is not a topic of this app' });
      else if (!topic.channels.includes(channel))
        problems.push({
          field: `${at}.topic`,
          message: `does not go ${s.channel === 'push' ? 'by push' : 'in-app'}: add ${channel} to its channels`,
        });
    }
    return problems;
  });
}

/** The emails a version's email steps send, each rendered as it is now; one of another app-mode, or gone, refused naming the step's `messageId`. */
export async function emailsOf(ctx: Ctx, appModeId: string, w: WorkflowGraph) {
  const emails = new Map<string, Awaited<ReturnType<typeof renderedNow>>>();
  const errors: FieldError[] = [];
  for (const [i, s] of w.steps.entries()) {
    if (s.kind !== 'send' || s.channel !== 'email' || emails.has(s.messageId)) continue;
    const field = `definition.steps.${i}.messageId`;
    const found = await ctx.db.emailMessage.findFirst({ where: { id: s.messageId, appModeId }, select: { id: true } });
    if (!found) {
      errors.push({ field, message: 'is not an email of this app' });
      continue;
    }
    try {
      emails.set(s.messageId, await renderedNow(ctx, s.messageId));
    } catch (err) {
      if (!(err instanceof DomainError) || err.status !== 400) throw err;
      errors.push(...err.errors.map((e) => ({ field, message: `the email's ${e.field} ${e.message}` })));
    }
  }
  if (errors.length) throw invalid(errors);
  return emails;
}
