import type { FieldError } from '../errors.js';
import { Reader } from '../inapp/reader.js';
import { windowOf, windowProblems, type SendingWindow } from '../inapp/schedule.js';
import { graphProblems, type CheckedStep } from './graph-check.js';

// A workflow as staff write it: what starts a run for a person (its trigger), who may enter again,
// what ends a run early (its exit rules), and its steps, the first of which a run starts at. Read
// member by member (each problem named by its path), then checked as a graph before it may be
// published (graph-check.ts). The conditions of branches and audiences are audience rules, read by
// the caller with the app-mode's vocabulary (`readRule`), so this module stays pure.

export const MAX_STEPS = 200;
/** The longest wait a step may name: a year. */
export const MAX_WAIT_SECONDS = 366 * 86_400;
export const MAX_OUTCOME = 40;

export type Trigger =
  | { kind: 'event'; event: string }
  | { kind: 'attribute_changed'; attribute: string }
  | { kind: 'audience_entered'; audience: unknown }
  | { kind: 'date_reached'; attribute: string; offsetDays: number };

/** Once per person for ever, or again once this many days have passed since their last run began. */
export type Entry = { once: true } | { once: false; againAfterDays: number };

export interface Exit {
  /** A run ends (outcome `goal`) when the person does this. */
  goalEvent?: string;
  /** A run ends (outcome `left_audience`) when the person leaves the trigger's audience. */
  leavesAudience?: boolean;
}

export type Channel = 'inapp' | 'push' | 'email' | 'notice';

/** What a notice or a push from a workflow says: a notice's title, body and link (a path in the app or an https URL). */
export interface SendContent {
  title: string;
  body?: string;
  link?: string;
}

/**
 * When a send step may send, in the person's own time zone (their contact's, else UTC): its window's
 * days and hours; outside them the run waits until the window next opens (`wait`, the default) or
 * the step is skipped (`skip`, reason `outside_window`).
 */
export interface SendTiming {
  sendingWindow?: SendingWindow;
  outsideWindow?: 'wait' | 'skip';
}

/** A send step: a notice or a push written in the step (under a topic, or none), or an in-app message or an email by its id. */
export type SendStep = SendTiming &
  (
    | { kind: 'send'; channel: 'notice' | 'push'; content: SendContent; topic?: string; next: string }
    | {
        kind: 'send';
        channel: 'inapp' | 'email';
        messageId: string;
        next: string;
        /** An email step's sending, made when the version is published (the email as it was then). */
        emailVersionId?: string;
      }
  );

export type Step = { key: string } & (
  | { kind: 'wait'; seconds: number; next: string }
  | { kind: 'wait_until'; time: string; next: string }
  /** Without `timeoutSeconds` and `timeout` a run waits for the event alone (parked). */
  | { kind: 'wait_for_event'; event: string; timeoutSeconds?: number; next: string; timeout?: string }
  | { kind: 'branch'; condition: unknown; yes: string; no: string }
  | SendStep
  | { kind: 'webhook'; url: string; next: string }
  | { kind: 'set_attribute'; attribute: string; value: string | number | boolean | null; next: string }
  | { kind: 'tag'; action: 'add' | 'remove'; tag: string; next: string }
  | { kind: 'end'; outcome: string }
);
export type StepKind = Step['kind'];

export const STEP_KINDS = ['wait', 'wait_until', 'wait_for_event', 'branch', 'send', 'webhook', 'set_attribute', 'tag', 'end'] as const;
const CHANNELS = ['inapp', 'push', 'email', 'notice'] as const;
const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
const KEY = /^[a-z][a-z0-9_]{0,39}$/;

export interface WorkflowGraph {
  trigger: Trigger;
  entry: Entry;
  exit: Exit;
  steps: Step[];
}

/** Reads an audience rule (a branch's condition, the trigger's audience) as the app-mode's vocabulary allows, failing on `r`. */
export type RuleReader = (r: Reader, value: unknown, path: string) => unknown;

/** The ways on of a step, each with the member naming it. */
export function waysOn(step: Step): { member: string; to: string }[] {
  switch (step.kind) {
    case 'end':
      return [];
    case 'branch':
      return [
        { member: 'yes', to: step.yes },
        { member: 'no', to: step.no },
      ];
    case 'wait_for_event':
      return [{ member: 'next', to: step.next }, ...(step.timeout === undefined ? [] : [{ member: 'timeout', to: step.timeout }])];
    default:
      return [{ member: 'next', to: step.next }];
  }
}

/** Steps a run waits at (a timer, perhaps with a signal): a loop through one does not spin. */
export const waitsAt = (step: Step) => step.kind === 'wait' || step.kind === 'wait_until' || step.kind === 'wait_for_event';

export function readWorkflow(input: unknown, readRule: RuleReader): { workflow?: WorkflowGraph; errors: FieldError[] } {
  const r = new Reader();
  const raw = r.object(input, 'workflow');
  if (!raw) return { errors: r.errors };
  const trigger = readTrigger(r, raw.trigger, 'trigger', readRule);
  const entry = readEntry(r, raw.entry, 'entry');
  const exit = readExit(r, raw.exit, 'exit', trigger);
  const list = r.array(raw.steps, 'steps', { min: 1, max: MAX_STEPS }) ?? [];
  const steps = list.map((s, i) => readStep(r, s, `steps.${i}`, readRule));
  const seen = new Set<string>();
  steps.forEach((s, i) => {
    if (!s) return;
    if (seen.has(s.key)) r.fail(`steps.${i}.key`, `step ${s.key} is named twice`);
    seen.add(s.key);
  });
  if (!r.ok || !trigger || !entry || !exit) return { errors: r.errors };
  const checked: CheckedStep[] = (steps as Step[]).map((s, i) => ({
    key: s.key,
    next: waysOn(s).map((w) => ({ field: `steps.${i}.${w.member}`, to: w.to })),
    waits: waitsAt(s),
    ends: s.kind === 'end',
  }));
  const problems = graphProblems(checked, 'steps');
  if (problems.length) return { errors: problems.slice(0, 50) };
  return { workflow: { trigger, entry, exit, steps: steps as Step[] }, errors: [] };
}

function readTrigger(r: Reader, value: unknown, path: string, readRule: RuleReader): Trigger | undefined {
  const t = r.object(value, path);
  if (!t) return undefined;
  switch (t.kind) {
    case 'event': {
      const event = r.text(t.event, `${path}.event`, 100, { required: true });
      return event === undefined ? undefined : { kind: 'event', event };
    }
    case 'attribute_changed': {
      const attribute = r.text(t.attribute, `${path}.attribute`, 100, { required: true });
      return attribute === undefined ? undefined : { kind: 'attribute_changed', attribute };
    }
    case 'audience_entered': {
      const audience = readRule(r, t.audience, `${path}.audience`);
      return audience === undefined ? undefined : { kind: 'audience_entered', audience };
    }
    case 'date_reached': {
      const attribute = r.text(t.attribute, `${path}.attribute`, 100, { required: true });
      const offsetDays = t.offsetDays === undefined ? 0 : r.int(t.offsetDays, `${path}.offsetDays`, -365, 365);
      return attribute === undefined || offsetDays === undefined ? undefined : { kind: 'date_reached', attribute, offsetDays };
    }
    default:
      return r.fail(`${path}.kind`, 'must be event, attribute_changed, audience_entered or date_reached');
  }
}

function readEntry(r: Reader, value: unknown, path: string): Entry | undefined {
  if (value === undefined || value === null) return { once: true };
  const e = r.object(value, path);
  if (!e) return undefined;
  if (e.againAfterDays === undefined || e.againAfterDays === null) return { once: true };
  const againAfterDays = r.int(e.againAfterDays, `${path}.againAfterDays`, 1, 3650);
  return againAfterDays === undefined ? undefined : { once: false, againAfterDays };
}

function readExit(r: Reader, value: unknown, path: string, trigger: Trigger | undefined): Exit | undefined {
  if (value === undefined || value === null) return {};
  const e = r.object(value, path);
  if (!e) return undefined;
  const exit: Exit = {};
  if (e.goalEvent !== undefined && e.goalEvent !== null) exit.goalEvent = r.text(e.goalEvent, `${path}.goalEvent`, 100, { required: true });
  if (e.leavesAudience !== undefined) {
    exit.leavesAudience = r.bool(e.leavesAudience, `${path}.leavesAudience`);
    if (exit.leavesAudience && trigger && trigger.kind !== 'audience_entered')
      r.fail(`${path}.leavesAudience`, 'only a workflow its audience starts can end when the person leaves it');
  }
  return exit;
}

function readStep(r: Reader, value: unknown, path: string, readRule: RuleReader): Step | undefined {
  const s = r.object(value, path);
  if (!s) return undefined;
  const key =
    typeof s.key === 'string' && KEY.test(s.key)
      ? s.key
      : r.fail(`${path}.key`, 'must be a lowercase word of up to 40 characters (a-z, 0-9, _)');
  const to = (member: string) =>
    typeof s[member] === 'string' && KEY.test(s[member] as string)
      ? (s[member] as string)
      : r.fail(`${path}.${member}`, 'must name a step by its key');
  const seconds = (member: string) =>
    s[member] === undefined || s[member] === null
      ? r.fail(`${path}.${member}`, 'is required')
      : r.int(s[member], `${path}.${member}`, 1, MAX_WAIT_SECONDS);
  if (!key) return undefined;
  switch (s.kind) {
    case 'wait': {
      const [wait, next] = [seconds('seconds'), to('next')];
      return wait && next ? { key, kind: 'wait', seconds: wait, next } : undefined;
    }
    case 'wait_until': {
      const time =
        typeof s.time === 'string' && TIME_OF_DAY.test(s.time)
          ? s.time
          : r.fail(`${path}.time`, "must be a time of day, HH:MM (the person's own zone)");
      const next = to('next');
      return time && next ? { key, kind: 'wait_until', time, next } : undefined;
    }
    case 'wait_for_event': {
      const event = r.text(s.event, `${path}.event`, 100, { required: true });
      if (s.timeoutSeconds === undefined && s.timeout === undefined) {
        const next = to('next');
        return event && next ? { key, kind: 'wait_for_event', event, next } : undefined;
      }
      const [timeoutSeconds, next, timeout] = [seconds('timeoutSeconds'), to('next'), to('timeout')];
      return event && timeoutSeconds && next && timeout ? { key, kind: 'wait_for_event', event, timeoutSeconds, next, timeout } : undefined;
    }
    case 'branch': {
      const condition = readRule(r, s.condition, `${path}.condition`);
      const [yes, no] = [to('yes'), to('no')];
      return condition !== undefined && yes && no ? { key, kind: 'branch', condition, yes, no } : undefined;
    }
    case 'send': {
      const channel = CHANNELS.includes(s.channel as Channel)
        ? (s.channel as Channel)
        : r.fail(`${path}.channel`, `must be ${CHANNELS.join(', ')}`);
      const next = to('next');
      const timing = readTiming(r, s, path);
      if (channel === 'notice' || channel === 'push') {
        const content = readContent(r, s.content, `${path}.content`);
        const topic = s.topic === undefined || s.topic === null ? undefined : r.text(s.topic, `${path}.topic`, 100, { required: true });
        return content && next && timing ? { key, kind: 'send', channel, content, ...(topic && { topic }), ...timing, next } : undefined;
      }
      const messageId = r.id(s.messageId, `${path}.messageId`);
      return channel && messageId && next && timing ? { key, kind: 'send', channel, messageId, ...timing, next } : undefined;
    }
    case 'webhook': {
      const url =
        typeof s.url === 'string' && /^https:\/\/[^\s]{1,2000}$/.test(s.url) ? s.url : r.fail(`${path}.url`, 'must be an https address');
      const next = to('next');
      return url && next ? { key, kind: 'webhook', url, next } : undefined;
    }
    case 'set_attribute': {
      const attribute = r.text(s.attribute, `${path}.attribute`, 100, { required: true });
      const v = s.value;
      const value =
        v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))
          ? v
          : typeof v === 'string'
            ? r.text(v, `${path}.value`, 1000, { blank: true })
            : r.fail(`${path}.value`, 'must be a string, a number, true, false or null');
      const next = to('next');
      return attribute && value !== undefined && next ? { key, kind: 'set_attribute', attribute, value, next } : undefined;
    }
    case 'tag': {
      const action = s.action === 'add' || s.action === 'remove' ? s.action : r.fail(`${path}.action`, 'must be add or remove');
      const tag = r.text(s.tag, `${path}.tag`, 100, { required: true });
      const next = to('next');
      return action && tag && next ? { key, kind: 'tag', action, tag, next } : undefined;
    }
    case 'end': {
      const outcome =
        s.outcome === undefined
          ? 'done'
          : typeof s.outcome === 'string' && KEY.test(s.outcome)
            ? s.outcome
            : r.fail(`${path}.outcome`, `must be a lowercase word of up to ${MAX_OUTCOME} characters`);
      return outcome ? { key, kind: 'end', outcome } : undefined;
    }
    default:
      return r.fail(`${path}.kind`, `must be one of ${STEP_KINDS.join(', ')}`);
  }
}

/** A send step's window (the in-app messages' rule: days, from, to) and what a run does outside it. */
function readTiming(r: Reader, s: Record<string, unknown>, path: string): SendTiming | undefined {
  if (s.sendingWindow === undefined || s.sendingWindow === null) {
    if (s.outsideWindow !== undefined && s.outsideWindow !== null) return r.fail(`${path}.outsideWindow`, 'needs a sendingWindow');
    return {};
  }
  const w = r.object(s.sendingWindow, `${path}.sendingWindow`);
  if (!w) return undefined;
  const problems = windowProblems(w as { days: unknown; from: unknown; to: unknown });
  for (const p of problems) r.fail(`${path}.sendingWindow.${p.member}`, p.message);
  const outside = s.outsideWindow ?? 'wait';
  if (outside !== 'wait' && outside !== 'skip') return r.fail(`${path}.outsideWindow`, 'must be wait or skip');
  return problems.length ? undefined : { sendingWindow: windowOf(w as unknown as SendingWindow), outsideWindow: outside };
}

/** A notice's or a push's words as written in a send step; their rules (lengths, the link's form) are the notice's, checked on publishing. */
function readContent(r: Reader, value: unknown, path: string): SendContent | undefined {
  const c = r.object(value, path);
  if (!c) return undefined;
  const title = r.text(c.title, `${path}.title`, 200, { required: true });
  const body = c.body === undefined || c.body === null ? undefined : r.text(c.body, `${path}.body`, 2000, { blank: true });
  const link =
    c.link === undefined || c.link === null || c.link === '' ? undefined : r.text(c.link, `${path}.link`, 2000, { required: true });
  return title === undefined ? undefined : { title, ...(body && { body }), ...(link && { link }) };
}
