import { readBlocks, type ContentBlock } from '../help/blocks.js';
import type { FieldError } from '../errors.js';
import { VALUE_KINDS, type ValueKind } from './values.js';

// The help bot as staff save it, checked as a whole: its name, its steps and its openings. Every
// button and question leads to a step of the graph (or hands over to the team), every step is
// reached from an opening's button or another step, and each step goes on in exactly one way.
// Each problem names its member (`steps.2.buttons.0.next`), all of them at once.

/** The target that hands the conversation to the team instead of a step. */
export const HANDOVER = 'handover';

export const MAX_BOT_NAME = 60;
export const MAX_STEPS = 100;
export const MAX_STEP_BLOCKS = 10;
export const MAX_OPENINGS = 20;
export const MAX_OPENING_PARAGRAPHS = 3;
export const MAX_OPENING_NAME = 100;
export const MAX_BUTTONS = 5;
export const MAX_LABEL = 60;
/** Step keys, button ids and the keys values are collected under. */
const KEY = /^[a-z][a-z0-9_]{0,39}$/;
const KEY_RULE = 'must be 1 to 40 lowercase letters, digits or _, starting with a letter';

export interface BotButton {
  id: string;
  label: string;
  /** A step's key, or HANDOVER. */
  next: string;
}

export interface BotQuestion {
  kind: ValueKind;
  /** The key the answer is collected under (`collected`). */
  key: string;
  next: string;
}

export interface BotHandover {
  /** The team the conversation is assigned to; null: the team as a whole. */
  teamId: string | null;
}

export interface BotStep {
  key: string;
  blocks: ContentBlock[];
  buttons: BotButton[];
  question: BotQuestion | null;
  handover: BotHandover | null;
}

export interface OpeningInput {
  /** An opening saved before (left out: a new one). */
  id?: string | null;
  name: string;
  /** One of the app's languages; null: every language without an active opening of its own. */
  language: string | null;
  active: boolean;
  blocks: unknown;
  buttons: BotButton[];
}

export interface StepInput {
  key: string;
  blocks: unknown;
  buttons?: BotButton[] | null;
  question?: BotQuestion | null;
  handover?: BotHandover | null;
}

export interface HelpBotInput {
  name: string;
  steps: StepInput[];
  openings: OpeningInput[];
}

export interface CheckedOpening extends Omit<OpeningInput, 'blocks'> {
  blocks: ContentBlock[];
}

export interface CheckedBot {
  name: string;
  steps: BotStep[];
  openings: CheckedOpening[];
}

/** What the graph is checked against: the app-mode's languages. */
export interface GraphContext {
  languages: string[];
}

export function checkBot(input: HelpBotInput, app: GraphContext): { bot: CheckedBot; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });

  const name = input.name.trim();
  if (!name || name.length > MAX_BOT_NAME) fail('name', `must be 1 to ${MAX_BOT_NAME} characters`);
  if (input.steps.length > MAX_STEPS) fail('steps', `must hold at most ${MAX_STEPS} steps`);
  if (input.openings.length > MAX_OPENINGS) fail('openings', `must hold at most ${MAX_OPENINGS} openings`);

  const keys = new Set<string>();
  input.steps.forEach((s, i) => {
    if (!KEY.test(s.key) || s.key === HANDOVER)
      fail(`steps.${i}.key`, s.key === HANDOVER ? `${HANDOVER} is the team, not a step` : KEY_RULE);
    else if (keys.has(s.key)) fail(`steps.${i}.key`, `another step has the key ${s.key}`);
    keys.add(s.key);
  });
  const leadsTo = (next: string, field: string) => {
    if (next !== HANDOVER && !keys.has(next)) fail(field, `no step has the key ${next} (name a step, or ${HANDOVER} for the team)`);
  };
  const buttonsOf = (buttons: BotButton[], field: string): BotButton[] => {
    if (buttons.length > MAX_BUTTONS) fail(field, `must hold at most ${MAX_BUTTONS} buttons`);
    const ids = new Set<string>();
    return buttons.map((b, j) => {
      const at = `${field}.${j}`;
      const label = b.label.trim();
      if (!KEY.test(b.id)) fail(`${at}.id`, KEY_RULE);
      else if (ids.has(b.id)) fail(`${at}.id`, `another button here has the id ${b.id}`);
      ids.add(b.id);
      if (!label || label.length > MAX_LABEL) fail(`${at}.label`, `must be 1 to ${MAX_LABEL} characters`);
      leadsTo(b.next, `${at}.next`);
      return { id: b.id, label, next: b.next };
    });
  };
  const blocksOf = (raw: unknown, field: string, max: number): ContentBlock[] => {
    const read = readBlocks(raw, { formatting: false }, field);
    if ('errors' in read) return (errors.push(...read.errors), []);
    if (read.blocks.length > max) fail(field, `must hold at most ${max} blocks`);
    return read.blocks;
  };

  const steps = input.steps.map((s, i): BotStep => {
    const at = `steps.${i}`;
    const buttons = buttonsOf(s.buttons ?? [], `${at}.buttons`);
    const ways = [buttons.length > 0, !!s.question, !!s.handover].filter(Boolean).length;
    if (ways !== 1) fail(at, 'must go on in exactly one way: buttons, a question, or a hand-over to the team');
    const blocks = blocksOf(s.blocks, `${at}.blocks`, MAX_STEP_BLOCKS);
    if (!blocks.length && !s.handover) fail(`${at}.blocks`, 'must say something before its buttons or question');
    let question: BotQuestion | null = null;
    if (s.question) {
      const q = s.question;
      if (!VALUE_KINDS.includes(q.kind)) fail(`${at}.question.kind`, `must be one of ${VALUE_KINDS.join(', ')}`);
      if (!KEY.test(q.key)) fail(`${at}.question.key`, KEY_RULE);
      leadsTo(q.next, `${at}.question.next`);
      question = { kind: q.kind, key: q.key, next: q.next };
    }
    return { key: s.key, blocks, buttons, question, handover: s.handover ? { teamId: s.handover.teamId ?? null } : null };
  });

  const ids = new Set<string>();
  const activeIn = new Set<string | null>();
  const openings = input.openings.map((o, i): CheckedOpening => {
    const at = `openings.${i}`;
    if (o.id) {
      if (ids.has(o.id)) fail(`${at}.id`, 'names an opening given before it');
      ids.add(o.id);
    }
    const name = o.name.trim();
    if (!name || name.length > MAX_OPENING_NAME) fail(`${at}.name`, `must be 1 to ${MAX_OPENING_NAME} characters`);
    if (o.language !== null && !app.languages.includes(o.language))
      fail(`${at}.language`, `must be one of the app's languages (${app.languages.join(', ')}), or null for every language`);
    if (o.active) {
      if (activeIn.has(o.language))
        fail(
          `${at}.active`,
          o.language ? `another active opening greets in ${o.language}` : 'another active opening is the one for every language',
        );
      activeIn.add(o.language);
    }
    const blocks = blocksOf(o.blocks, `${at}.blocks`, MAX_OPENING_PARAGRAPHS);
    if (!blocks.length) fail(`${at}.blocks`, 'must greet with 1 to 3 paragraphs');
    blocks.forEach((b, k) => b.type !== 'paragraph' && fail(`${at}.blocks.${k}.type`, 'an opening greets with paragraphs only'));
    return { id: o.id ?? null, name, language: o.language, active: o.active, blocks, buttons: buttonsOf(o.buttons, `${at}.buttons`) };
  });

  // Every step is reached: from an opening's button, or from a step that is.
  const reached = new Set<string>();
  const byKey = new Map(steps.map((s) => [s.key, s]));
  const walk = (key: string) => {
    const step = byKey.get(key);
    if (!step || reached.has(key)) return;
    reached.add(key);
    for (const next of [...step.buttons.map((b) => b.next), ...(step.question ? [step.question.next] : [])]) walk(next);
  };
  for (const o of openings) for (const b of o.buttons) walk(b.next);
  steps.forEach((s, i) => {
    if (!reached.has(s.key)) fail(`steps.${i}.key`, 'is dangling: no opening’s button and no step leads to it');
  });

  return { bot: { name, steps, openings }, errors };
}
