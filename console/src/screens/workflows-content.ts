import { audienceOf, modelOf, type Model } from './messages-content';
import { WORKING_HOURS, type WindowValue } from './sending-window';
import { STEP_KINDS, type StepKind } from './workflows-kinds';

export { KIND_WORDS, STEP_KINDS, type StepKind } from './workflows-kinds';

// A workflow's definition (docs/areas/workflows.md) as the step editor holds it, and back: every
// member as typed (a number that is not one is sent as written, and publishing refuses it naming
// its member), waits in a unit of time, conditions as audience rows (audience-rules.tsx), and each
// step with an id of its own that stays when its key or its place changes (a refusal names a step
// by its place when it was sent: `definition.steps.3.next`). Members the editor has no field for
// are kept and sent back as they were.

export const STATE_WORDS = { draft: 'Draft', live: 'Live', paused: 'Paused' } as const;

/** The ways on of each kind, with their words. */
export const WAYS: Record<StepKind, { member: Way; words: string }[]> = {
  wait: [{ member: 'next', words: 'Then go to' }],
  wait_until: [{ member: 'next', words: 'Then go to' }],
  wait_for_event: [
    { member: 'next', words: 'When the event comes, go to' },
    { member: 'timeout', words: 'When the time runs out, go to' },
  ],
  branch: [
    { member: 'yes', words: 'When the condition holds, go to' },
    { member: 'no', words: 'Otherwise go to' },
  ],
  send: [{ member: 'next', words: 'Then go to' }],
  webhook: [{ member: 'next', words: 'Then go to' }],
  set_attribute: [{ member: 'next', words: 'Then go to' }],
  tag: [{ member: 'next', words: 'Then go to' }],
  end: [],
};
export type Way = 'next' | 'yes' | 'no' | 'timeout';

export const TRIGGER_KINDS = ['event', 'attribute_changed', 'audience_entered', 'date_reached'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];
export const TRIGGER_WORDS: Record<TriggerKind, string> = {
  event: 'The person does an event',
  attribute_changed: 'An attribute of the person changes',
  audience_entered: 'The person enters an audience',
  date_reached: 'A date the person has comes round',
};

export const UNITS = [
  ['seconds', 1],
  ['minutes', 60],
  ['hours', 3600],
  ['days', 86_400],
] as const;
export type Unit = (typeof UNITS)[number][0];

/** A length of time as typed: an amount in a unit. */
export interface Span {
  amount: string;
  unit: Unit;
}

export type ValueType = 'string' | 'number' | 'true' | 'false' | 'null';

export interface EditStep {
  /** The editor's own, for the step's life on the page. */
  uid: string;
  key: string;
  kind: StepKind | string;
  wait: Span;
  time: string;
  event: string;
  timeout: Span;
  condition: Model;
  channel: string;
  messageId: string;
  /** A notice's or a push's words, and the topic it goes under (none: only everything-off holds). */
  title: string;
  body: string;
  link: string;
  topic: string;
  /** A send step's sending window (on the person's clock), and what a run does outside it: wait or skip. */
  windowOn: boolean;
  window: WindowValue;
  outside: string;
  url: string;
  attribute: string;
  valueType: ValueType;
  value: string;
  action: string;
  tag: string;
  outcome: string;
  ways: Record<Way, string>;
  /** Members the editor has no field for, as read. */
  kept: Record<string, unknown>;
}

export interface EditWorkflow {
  trigger: {
    kind: TriggerKind | string;
    event: string;
    attribute: string;
    audience: Model;
    offsetDays: string;
    kept: Record<string, unknown>;
  };
  /** Once per person, or again once `againAfterDays` have passed since their last run began. */
  again: boolean;
  againAfterDays: string;
  goalEvent: string;
  leavesAudience: boolean;
  steps: EditStep[];
  /** Top-level members the editor has no field for. */
  kept: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const without = (o: Json, members: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !members.includes(k)));

let uids = 0;
const nextUid = () => `s${++uids}`;

/** Seconds as an amount in the largest unit that holds them whole. */
export function spanOf(v: unknown): Span {
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) return { amount: text(v), unit: 'seconds' };
  const [unit, size] = [...UNITS].reverse().find(([, size]) => v % size === 0)!;
  return { amount: String(v / size), unit };
}

/** A span as seconds, or as typed when it is no whole amount (publishing refuses it, naming the member). */
function secondsOf(s: Span): unknown {
  if (s.amount.trim() === '') return undefined;
  const n = Number(s.amount);
  const size = UNITS.find(([u]) => u === s.unit)![1];
  return Number.isFinite(n) ? Math.round(n * size) : s.amount;
}

/** A number as typed, or the words when they are none. */
const numberOf = (v: string): unknown => (v.trim() === '' ? undefined : Number.isFinite(Number(v)) ? Number(v) : v);

const STEP_MEMBERS = [
  'key',
  'kind',
  'seconds',
  'time',
  'event',
  'timeoutSeconds',
  'condition',
  'channel',
  'messageId',
  'content',
  'topic',
  'sendingWindow',
  'outsideWindow',
  'url',
  'attribute',
  'value',
  'action',
  'tag',
  'outcome',
  'next',
  'yes',
  'no',
  'timeout',
];

export function newStep(kind: StepKind, steps: EditStep[]): EditStep {
  const taken = new Set(steps.map((s) => s.key));
  let n = 1;
  while (taken.has(`${kind}_${n}`)) n++;
  return stepOf({ key: `${kind}_${n}`, kind, ...(kind === 'send' ? { channel: 'notice' } : kind === 'tag' ? { action: 'add' } : {}) });
}

function stepOf(raw: unknown): EditStep {
  const s = isObj(raw) ? raw : {};
  const v = s.value;
  const content = isObj(s.content) ? s.content : {};
  const w = isObj(s.sendingWindow) ? s.sendingWindow : undefined;
  const valueType: ValueType =
    v === null ? 'null' : v === true ? 'true' : v === false ? 'false' : typeof v === 'number' ? 'number' : 'string';
  return {
    uid: nextUid(),
    key: text(s.key),
    kind: typeof s.kind === 'string' ? s.kind : 'wait',
    wait: spanOf(s.seconds),
    time: text(s.time),
    event: text(s.event),
    timeout: spanOf(s.timeoutSeconds),
    condition: modelOf(s.condition),
    channel: text(s.channel),
    messageId: text(s.messageId),
    title: text(content.title),
    body: text(content.body),
    link: text(content.link),
    topic: text(s.topic),
    windowOn: w !== undefined,
    window: w
      ? { days: Array.isArray(w.days) ? w.days.filter((d): d is number => typeof d === 'number') : [], from: text(w.from), to: text(w.to) }
      : WORKING_HOURS,
    outside: s.outsideWindow === undefined ? 'wait' : text(s.outsideWindow),
    url: text(s.url),
    attribute: text(s.attribute),
    valueType,
    value: typeof v === 'string' || typeof v === 'number' ? String(v) : '',
    action: text(s.action),
    tag: text(s.tag),
    outcome: s.outcome === undefined ? 'done' : text(s.outcome),
    ways: { next: text(s.next), yes: text(s.yes), no: text(s.no), timeout: text(s.timeout) },
    kept: without(s, STEP_MEMBERS),
  };
}

export function toEdit(draft: unknown): EditWorkflow {
  const d = isObj(draft) ? draft : {};
  const t = isObj(d.trigger) ? d.trigger : {};
  const entry = isObj(d.entry) ? d.entry : {};
  const exit = isObj(d.exit) ? d.exit : {};
  return {
    trigger: {
      kind: typeof t.kind === 'string' ? t.kind : 'event',
      event: text(t.event),
      attribute: text(t.attribute),
      audience: modelOf(t.audience),
      offsetDays: text(t.offsetDays),
      kept: without(t, ['kind', 'event', 'attribute', 'audience', 'offsetDays']),
    },
    again: entry.againAfterDays !== undefined && entry.againAfterDays !== null,
    againAfterDays: text(entry.againAfterDays),
    goalEvent: text(exit.goalEvent),
    leavesAudience: exit.leavesAudience === true,
    steps: Array.isArray(d.steps) ? d.steps.map(stepOf) : [],
    kept: without(d, ['trigger', 'entry', 'exit', 'steps']),
  };
}

const present = (o: Json) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));

/** Channels whose words are written in the step (the others name a message by its id). */
export const WRITTEN = ['notice', 'push'];

function fromStep(s: EditStep): Json {
  const ways = Object.fromEntries((WAYS[s.kind as StepKind] ?? []).map((w) => [w.member, s.ways[w.member]]));
  const value =
    s.valueType === 'null'
      ? null
      : s.valueType === 'true'
        ? true
        : s.valueType === 'false'
          ? false
          : s.valueType === 'number'
            ? (numberOf(s.value) ?? s.value)
            : s.value;
  const members: Record<string, Json> = {
    wait: { seconds: secondsOf(s.wait) },
    wait_until: { time: s.time },
    wait_for_event: { event: s.event, timeoutSeconds: secondsOf(s.timeout) },
    branch: { condition: audienceOf(s.condition) ?? undefined },
    send: {
      ...(WRITTEN.includes(s.channel)
        ? { channel: s.channel, content: present({ title: s.title, body: s.body, link: s.link.trim() }), topic: s.topic.trim() }
        : { channel: s.channel, messageId: s.messageId.trim() }),
      ...(s.windowOn && { sendingWindow: s.window, outsideWindow: s.outside }),
    },
    webhook: { url: s.url.trim() },
    set_attribute: { attribute: s.attribute, value },
    tag: { action: s.action, tag: s.tag },
    end: { outcome: s.outcome.trim() || undefined },
  };
  const own = members[s.kind] ?? {};
  // A value of "" is a value (an attribute set to the empty string): kept even when empty.
  const kept = s.kind === 'set_attribute' ? { value } : {};
  return { ...s.kept, key: s.key, kind: s.kind, ...present(own), ...kept, ...present(ways) };
}

/** The definition as saved: what is typed, as the service reads it. */
export function fromEdit(w: EditWorkflow): Json {
  const t = w.trigger;
  const trigger: Json = {
    ...t.kept,
    kind: t.kind,
    ...present(
      t.kind === 'event'
        ? { event: t.event }
        : t.kind === 'attribute_changed'
          ? { attribute: t.attribute }
          : t.kind === 'audience_entered'
            ? { audience: audienceOf(t.audience) ?? undefined }
            : t.kind === 'date_reached'
              ? { attribute: t.attribute, offsetDays: numberOf(t.offsetDays) }
              : {},
    ),
  };
  const againAfterDays = w.again ? (numberOf(w.againAfterDays) ?? w.againAfterDays) : undefined;
  const exit = present({ goalEvent: w.goalEvent.trim(), leavesAudience: w.leavesAudience || undefined });
  return {
    ...w.kept,
    trigger,
    ...(againAfterDays === undefined ? {} : { entry: { againAfterDays } }),
    ...(Object.keys(exit).length ? { exit } : {}),
    steps: w.steps.map(fromStep),
  };
}

/**
 * A step's key changed: the ways on that named its old key name the new one (unless another step
 * still has the old key, or already has the new one: then they are left for the writer to choose).
 */
export function renameKey(steps: EditStep[], uid: string, key: string): EditStep[] {
  const old = steps.find((s) => s.uid === uid)!.key;
  const others = steps.filter((s) => s.uid !== uid);
  const follow = old !== '' && !others.some((s) => s.key === old) && !others.some((s) => s.key === key);
  return steps.map((s) => {
    const ways = follow
      ? (Object.fromEntries(Object.entries(s.ways).map(([m, to]) => [m, to === old ? key : to])) as Record<Way, string>)
      : s.ways;
    return s.uid === uid ? { ...s, key, ways } : { ...s, ways };
  });
}

// The editor's work not yet saved, per workflow, in sessionStorage (as a conversation's draft is,
// console/src/draft.ts): it outlives leaving the workflow and coming back, and a reload of the tab;
// it goes when saved.

const keptKey = (id: string) => `crm.console.workflow.${id}`;

export function readUnsaved(id: string): { name: string; definition: unknown } | undefined {
  try {
    const d = JSON.parse(sessionStorage.getItem(keptKey(id)) ?? 'null') as { name?: unknown; definition?: unknown } | null;
    if (d && typeof d.name === 'string') return { name: d.name, definition: d.definition };
  } catch {}
  return undefined;
}

export function keepUnsaved(id: string, unsaved: { name: string; definition: unknown } | undefined) {
  try {
    if (!unsaved) sessionStorage.removeItem(keptKey(id));
    else sessionStorage.setItem(keptKey(id), JSON.stringify(unsaved));
  } catch {}
}
