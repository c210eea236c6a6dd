import { randomUUID } from 'node:crypto';
import { rows, sql } from '../../db/sql.js';
import type { Prisma, Workflow } from '../../generated/prisma/client.js';
import { readAudience, vocabularyOf, type Rule } from '../audiences/rules.js';
import { fieldName, surveyName } from '../contacts/changes.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { conflict, DomainError, invalid, invalidField, notFound } from '../errors.js';
import { workflowSending } from '../email/sending.js';
import { lock } from '../locks.js';
import { readWorkflow, type RuleReader, type WorkflowGraph } from './definition.js';
import { emailsOf, sendProblems } from './send-checks.js';

// Workflows as staff keep them: a draft saved as written (so work in progress is never lost to a
// refusal), published into a numbered version once it reads and checks whole (definition.ts, the
// audience rules against the app-mode's vocabulary), each refusal naming the member under
// `definition`. New runs start on the live version; a paused workflow takes no one new.

export const MAX_WORKFLOWS = 500;
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

/** The audience rules a draft writes (its trigger's audience, its branches' conditions), as one group: the surveys they name are read for them. */
function rulesOf(draft: unknown): { all: unknown[] } {
  const d = (typeof draft === 'object' && draft !== null ? draft : {}) as { trigger?: { audience?: unknown }; steps?: unknown };
  const steps = Array.isArray(d.steps) ? d.steps.slice(0, 1000) : [];
  const conditions = steps.map((s) => (typeof s === 'object' && s !== null ? (s as { condition?: unknown }).condition : undefined));
  return { all: [d.trigger?.audience, ...conditions].filter((r) => r !== undefined) };
}

/** Publishes the draft as the next version, which new runs start on; refused naming each problem under `definition`. */
export async function publishWorkflow(ctx: Ctx<StaffCaller>, id: string): Promise<Workflow> {
  const current = await workflowIn(ctx, id);
  const vocabulary = await vocabularyOf(ctx, current.appModeId, rulesOf(current.draft));
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
    // The events its runs hear and the changes of a person it watches, added to those of its earlier versions (runs on them still hear theirs).
    const events = heardEvents(workflow);
    if (events.length)
      await tx.db.workflowListen.createMany({
        data: events.map((event) => ({ appModeId: current.appModeId, event, workflowId: id })),
        skipDuplicates: true,
      });
    const watched = watchedNames(workflow);
    if (watched.length)
      await tx.db.workflowWatch.createMany({
        data: watched.map((name) => ({ appModeId: current.appModeId, name, workflowId: id })),
        skipDuplicates: true,
      });
    return tx.db.workflow.update({ where: { id }, data: { state: 'live', liveVersion: number, updatedAt: now } });
  });
}

/** The events a version's runs hear: its trigger's, its goal, those its waits for an event wait for, and those its audience counts. */
export function heardEvents(w: WorkflowGraph): string[] {
  const names = new Set<string>();
  if (w.trigger.kind === 'event') names.add(w.trigger.event);
  if (w.trigger.kind === 'audience_entered') for (const n of ruleNames(w.trigger.audience as Rule)) if (n.event) names.add(n.event);
  if (w.exit.goalEvent) names.add(w.exit.goalEvent);
  for (const s of w.steps) if (s.kind === 'wait_for_event') names.add(s.event);
  return [...names];
}

/** The changes of a person a version watches (contacts/changes.ts): its trigger's attribute, and the attributes, fields and surveys its audience reads. */
export function watchedNames(w: WorkflowGraph): string[] {
  const names = new Set<string>();
  if (w.trigger.kind === 'attribute_changed') names.add(w.trigger.attribute);
  if (w.trigger.kind === 'audience_entered') for (const n of ruleNames(w.trigger.audience as Rule)) if (n.watched) names.add(n.watched);
  return [...names];
}

/** What an audience rule reads of a person: attributes, fields and survey answers (as watched names), and events. */
export function ruleNames(rule: Rule | null): { watched?: string; event?: string }[] {
  if (!rule) return [];
  if ('all' in rule) return rule.all.flatMap(ruleNames);
  if ('any' in rule) return rule.any.flatMap(ruleNames);
  if ('event' in rule) return [{ event: rule.event }];
  if ('attribute' in rule) return [{ watched: rule.attribute }];
  if ('field' in rule) return [{ watched: fieldName(rule.field) }];
  if ('survey' in rule) return [{ watched: surveyName(rule.survey) }];
  return [];
}

/** Takes no one new (paused) or takes people again (live); runs under way go on either way. */
export async function setWorkflowLive(ctx: Ctx<StaffCaller>, id: string, live: boolean): Promise<Workflow> {
  const current = await workflowIn(ctx, id);
  if (current.liveVersion === null) throw conflict('workflow_unpublished', 'Publish the workflow first.');
  return ctx.db.workflow.update({ where: { id }, data: { state: live ? 'live' : 'paused', updatedAt: ctx.clock.now() } });
}
