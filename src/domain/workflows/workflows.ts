import { randomUUID } from 'node:crypto';
import { rows, sql } from '../../db/sql.js';
import type { Prisma, Workflow } from '../../generated/prisma/client.js';
import { readAudience, vocabularyOf } from '../audiences/rules.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { conflict, DomainError, invalid, invalidField, notFound, type FieldError } from '../errors.js';
import { noticeProblems } from '../notices/add.js';
import { renderedNow, workflowSending } from '../email/sending.js';
import { payloadProblems } from '../push/payload.js';
import { lock } from '../locks.js';
import { readWorkflow, type RuleReader, type WorkflowGraph } from './definition.js';

// Workflows as staff keep them: a draft saved as written (so work in progress is never lost to a
// refusal), published into a numbered version once it reads and checks whole (definition.ts, the
// audience rules against the app-mode's vocabulary), each refusal naming the member under
// `definition`. New runs start on the live version; a paused workflow takes no one new.

export const MAX_WORKFLOWS = 500;
/** In-app send steps are read and saved in drafts, and refused on publishing until runs can send them (docs/areas/workflows.md). */
export const CHANNEL_NOT_YET = 'in-app messages cannot be sent from a workflow yet: send a notice, a push or an email';
export const MAX_NAME = 100;
/** A draft's size as JSON. */
export const MAX_DRAFT_BYTES = 256 * 1024;

export interface WorkflowInput {
  name?: string | null;
  definition?: unknown;
}

function readName(name: unknown): string {
  const text = typeof name === 'string' ? name.trim() : '';
  if (!text || text.length > MAX_NAME) throw invalidField('name', `must be 1 to ${MAX_NAME} characters`);
  return text;
}

function readDraft(definition: unknown): Prisma.InputJsonValue {
  const text = JSON.stringify(definition ?? {});
  if (Buffer.byteLength(text) > MAX_DRAFT_BYTES) throw invalidField('definition', `must be at most ${MAX_DRAFT_BYTES / 1024} KiB as JSON`);
  return JSON.parse(text) as Prisma.InputJsonValue;
}

export async function workflowIn(ctx: Ctx, id: string): Promise<Workflow> {
  const found = await ctx.db.workflow.findUnique({ where: { id } });
  if (!found) throw notFound('No such workflow.');
  return found;
}

/** A new workflow of the app-mode, a draft (at most MAX_WORKFLOWS, held exactly under concurrency). */
export async function createWorkflow(ctx: Ctx<StaffCaller>, appModeId: string, input: WorkflowInput): Promise<Workflow> {
  const name = readName(input.name);
  const draft = readDraft(input.definition);
  return transaction(ctx, async (tx) => {
    await lock(tx, 'workflows', appModeId);
    if ((await tx.db.workflow.count({ where: { appModeId } })) >= MAX_WORKFLOWS)
      throw conflict('workflow_limit', `An app-mode has at most ${MAX_WORKFLOWS} workflows.`);
    const now = tx.clock.now();
    return tx.db.workflow.create({ data: { id: randomUUID(), appModeId, name, draft, createdAt: now, updatedAt: now } });
  });
}

/** Saves the draft (and the name) as written; what is published stays as it was until published again. */
export async function changeWorkflow(ctx: Ctx<StaffCaller>, id: string, input: WorkflowInput): Promise<Workflow> {
  await workflowIn(ctx, id);
  const data: Prisma.WorkflowUpdateInput = { updatedAt: ctx.clock.now() };
  if (input.name !== undefined && input.name !== null) data.name = readName(input.name);
  if (input.definition !== undefined) data.draft = readDraft(input.definition);
  return ctx.db.workflow.update({ where: { id }, data });
}

/** The app-mode's audience rules, read as a workflow's members: each problem on the workflow's reader. */
const audienceReader =
  (vocabulary: Awaited<ReturnType<typeof vocabularyOf>>): RuleReader =>
  (r, value, path) => {
    try {
      return readAudience(value, vocabulary, path) ?? r.fail(path, 'is required');
    } catch (err) {
      if (!(err instanceof DomainError) || err.status !== 400) throw err;
      for (const e of err.errors) r.fail(e.field, e.message);
      return undefined;
    }
  };

/** Publishes the draft as the next version, which new runs start on; refused naming each problem under `definition`. */
export async function publishWorkflow(ctx: Ctx<StaffCaller>, id: string): Promise<Workflow> {
  const current = await workflowIn(ctx, id);
  const vocabulary = await vocabularyOf(ctx, current.appModeId, current.draft);
  const { workflow, errors } = readWorkflow(current.draft, audienceReader(vocabulary));
  if (!workflow) throw invalid(errors.map((e) => ({ ...e, field: `definition.${e.field}` })));
  const unsendable = await sendProblems(ctx, current.appModeId, workflow);
  if (unsendable.length) throw invalid(unsendable);
  const emails = await emailsOf(ctx, current.appModeId, workflow);
  return transaction(ctx, async (tx) => {
    // One publish of a workflow at a time: version numbers follow one another.
    const [held] = await rows<{ id: string }>(tx, sql`SELECT id FROM workflow WHERE id = ${id} FOR UPDATE`);
    if (!held) throw notFound('No such workflow.');
    const last = await tx.db.workflowVersion.findFirst({
      where: { workflowId: id },
      orderBy: { number: 'desc' },
      select: { number: true },
    });
    const number = (last?.number ?? 0) + 1;
    const now = tx.clock.now();
    // Each email step's sending: the email frozen as it is now, what this version's runs send.
    for (const step of workflow.steps)
      if (step.kind === 'send' && step.channel === 'email')
        step.emailVersionId = (await workflowSending(tx, emails.get(step.messageId)!, ctx.caller.staffUser.id)).id;
    await tx.db.workflowVersion.create({
      data: {
        id: randomUUID(),
        workflowId: id,
        appModeId: current.appModeId,
        number,
        definition: workflow as unknown as Prisma.InputJsonValue,
        publishedBy: ctx.caller.staffUser.id,
        publishedAt: now,
      },
    });
    // The events its runs hear, added to those of its earlier versions (runs on them still hear theirs).
    const events = heardEvents(workflow);
    if (events.length)
      await tx.db.workflowListen.createMany({
        data: events.map((event) => ({ appModeId: current.appModeId, event, workflowId: id })),
        skipDuplicates: true,
      });
    return tx.db.workflow.update({ where: { id }, data: { state: 'live', liveVersion: number, updatedAt: now } });
  });
}

/**
 * What a version's send steps could not send, each naming its member: in-app and email steps (not
 * yet), a topic that is not the app-mode's or does not go by the step's channel (the inbox is
 * in-app), words the notice's rules refuse, a push too large for a provider.
 */
async function sendProblems(ctx: Ctx, appModeId: string, w: WorkflowGraph): Promise<FieldError[]> {
  const sends = w.steps.flatMap((s, i) => (s.kind === 'send' ? [{ s, at: `definition.steps.${i}` }] : []));
  if (!sends.length) return [];
  const topics = await ctx.db.preferenceTopic.findMany({ where: { appModeId, archivedAt: null }, select: { key: true, channels: true } });
  return sends.flatMap(({ s, at }) => {
    if (s.channel === 'inapp') return [{ field: `${at}.channel`, message: CHANNEL_NOT_YET }];
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
async function emailsOf(ctx: Ctx, appModeId: string, w: WorkflowGraph) {
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

/** The events a version's runs hear: its trigger's, its goal, and those its waits for an event wait for. */
export function heardEvents(w: WorkflowGraph): string[] {
  const names = new Set<string>();
  if (w.trigger.kind === 'event') names.add(w.trigger.event);
  if (w.exit.goalEvent) names.add(w.exit.goalEvent);
  for (const s of w.steps) if (s.kind === 'wait_for_event') names.add(s.event);
  return [...names];
}

/** Takes no one new (paused) or takes people again (live); runs under way go on either way. */
export async function setWorkflowLive(ctx: Ctx<StaffCaller>, id: string, live: boolean): Promise<Workflow> {
  const current = await workflowIn(ctx, id);
  if (current.liveVersion === null) throw conflict('workflow_unpublished', 'Publish the workflow first.');
  return ctx.db.workflow.update({ where: { id }, data: { state: live ? 'live' : 'paused', updatedAt: ctx.clock.now() } });
}
