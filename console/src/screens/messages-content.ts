import { newKey, toBlocks, toEdit, type Block, type EditBlock } from './help-content.js';
import { FIELDS, OPS as SERVICE_OPS } from '../../../src/domain/audiences/vocabulary.js';

// A message's content as the console edits it, and back: a banner's or post's blocks (the help
// center's block editor's fields), a post's buttons, a carousel's screens with their blocks,
// layout, buttons (up to 3), choice and `next`. Whatever the editor has no field for (a screen's
// image, background and style, a carousel's progress, a block's formatting members…) is kept as
// read and given back unchanged. Branch targets: '' is the default (a screen's following one; a
// button's or option's: where its screen's next goes), `end` ends the carousel, else a screen id.

export const CAROUSEL_END = 'end';
export const MAX_BUTTONS = 3;
export const MAX_SCREENS = 50;
export const LAYOUTS = ['centred', 'image_top', 'image_full'] as const;
export const ACTIONS = ['next', 'link', 'close', 'permission'] as const;

type Json = Record<string, unknown>;

export interface EditButton {
  key: string;
  id: string;
  label: string;
  /** The action (`do`): '' for the default (next). */
  do: string;
  screen: string;
  link: string;
  rest: Json;
}

export interface EditOption {
  key: string;
  id: string;
  label: string;
  next: string;
  rest: Json;
}

export interface EditScreen {
  key: string;
  id: string;
  layout: string;
  blocks: EditBlock[];
  buttons: EditButton[];
  next: string;
  /** Single or multiple choice, when the screen asks one. */
  choice?: { multiple: boolean; options: EditOption[]; rest: Json } | undefined;
  rest: Json;
}

export interface EditContent {
  blocks: EditBlock[];
  buttons: EditButton[];
  /** A banner's link. */
  link: string;
  screens: EditScreen[];
  rest: Json;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const without = (o: Json, ...keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
const editBlocks = (v: unknown) => toEdit({ title: '', summary: '', blocks: list(v) as Block[] }).blocks;

function editButton(raw: unknown): EditButton {
  const b = obj(raw);
  return {
    key: newKey(),
    id: str(b.id),
    label: str(b.label),
    do: str(b.do),
    screen: str(b.screen),
    link: str(b.link),
    rest: without(b, 'id', 'label', 'do', 'screen', 'link'),
  };
}

export const newButton = (n: number): EditButton => ({ key: newKey(), id: `b${n}`, label: '', do: '', screen: '', link: '', rest: {} });

export function newScreen(taken: string[]): EditScreen {
  let n = taken.length + 1;
  while (taken.includes(`screen-${n}`)) n++;
  return { key: newKey(), id: `screen-${n}`, layout: '', blocks: [], buttons: [], next: '', rest: {} };
}

export function toEditContent(content: unknown): EditContent {
  const c = obj(content);
  return {
    blocks: editBlocks(c.blocks),
    buttons: list(c.buttons).map(editButton),
    link: str(c.link),
    screens: list(c.screens).map((raw) => {
      const s = obj(raw);
      const choice = s.choice === undefined || s.choice === null ? undefined : obj(s.choice);
      return {
        key: newKey(),
        id: str(s.id),
        layout: str(s.layout),
        blocks: editBlocks(s.blocks),
        buttons: list(s.buttons).map(editButton),
        next: str(s.next),
        choice: choice && {
          multiple: choice.multiple === true,
          options: list(choice.options).map((o) => {
            const op = obj(o);
            return { key: newKey(), id: str(op.id), label: str(op.label), next: str(op.next), rest: without(op, 'id', 'label', 'next') };
          }),
          rest: without(choice, 'options', 'multiple'),
        },
        rest: without(s, 'id', 'layout', 'blocks', 'buttons', 'next', 'choice'),
      };
    }),
    rest: without(c, 'blocks', 'buttons', 'link', 'screens'),
  };
}

/** Members with a value only: an empty field is left out (the default), never sent as ''. */
const given = (o: Json) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined));

const buttonOf = (b: EditButton, inCarousel: boolean) =>
  given({
    ...b.rest,
    id: b.id,
    label: b.label,
    do: b.do,
    screen: inCarousel ? b.screen : '',
    link: b.do === 'link' || b.link ? b.link : '',
  });

/** The content to save, by the message's kind. */
export function fromEditContent(kind: 'banner' | 'post' | 'carousel', e: EditContent): Json {
  if (kind === 'banner') return given({ ...e.rest, blocks: toBlocks(e.blocks), link: e.link });
  if (kind === 'post') {
    const buttons = e.buttons.map((b) => buttonOf(b, false));
    return { ...e.rest, blocks: toBlocks(e.blocks), ...(buttons.length ? { buttons } : {}) };
  }
  return {
    ...e.rest,
    screens: e.screens.map((s) => {
      const buttons = s.buttons.map((b) => buttonOf(b, true));
      return given({
        ...s.rest,
        id: s.id,
        layout: s.layout,
        blocks: toBlocks(s.blocks),
        buttons: buttons.length ? buttons : undefined,
        next: s.next,
        choice: s.choice && {
          ...s.choice.rest,
          ...(s.choice.multiple ? { multiple: true } : {}),
          options: s.choice.options.map((o) => given({ ...o.rest, id: o.id, label: o.label, next: s.choice!.multiple ? '' : o.next })),
        },
      });
    }),
  };
}

/** Where a branch goes, in words: the default, the end, or a screen by its number and id. */
export function targetName(target: string, screens: { id: string }[], fallback: string): string {
  if (!target) return fallback;
  if (target === CAROUSEL_END) return 'The end';
  const i = screens.findIndex((s) => s.id === target);
  return i < 0 ? `${target} (no such screen)` : `Screen ${i + 1} (${target})`;
}

// A message's audience as rows of conditions (messages-audience.tsx): { all | any: [rules] } where
// a condition on an attribute or the person's own field is a row, a condition on a survey's answers
// (src/domain/audiences/survey-rule.ts: { survey, question?, answered | submitted | range | options })
// a survey row, and any other rule (an event condition, a nested group) is kept as read and sent back
// unchanged. Sent in that order: rows, survey rows, kept rules (a refusal names a condition by its place).

export type Row = { key: number; subject: string; op: string; value: string; type: string };
/** What a survey row asks of the person's answers: the service's four forms, "did not" being the form negated. */
export type SurveyRule = 'answered' | 'not_answered' | 'submitted' | 'not_submitted' | 'range' | 'options';
export type SurveyRow = {
  key: number;
  survey: string;
  /** '' for the survey itself. */
  question: string;
  rule: SurveyRule;
  /** A range's ends, as the selects hold them. */
  min: string;
  max: string;
  options: string[];
};
export type Model = { group: 'all' | 'any'; rows: Row[]; surveys: SurveyRow[]; kept: unknown[] };

/** The person's own fields a condition may name (the check-in-only ones: platform, app_version, screen), and the operators of each type: the service's own words. */
export const FIELD_TYPES: Record<string, string> = FIELDS;
export const OPS: Record<string, readonly string[]> = SERVICE_OPS;
export const OP_WORDS: Record<string, string> = {
  is: 'is',
  is_not: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts with',
  ends_with: 'ends with',
  in: 'is one of (a, b)',
  not_in: 'is none of (a, b)',
  exists: 'is set',
  not_exists: 'is not set',
  eq: '=',
  ne: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  before: 'is before',
  after: 'is after',
  within_last_days: 'within the last N days',
  more_than_days_ago: 'more than N days ago',
};

let keys = 0;
export const nextRowKey = () => ++keys;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A condition the rows can hold: an attribute's or a field's, with a value the row writes back the same. */
function rowOf(c: unknown): Row | undefined {
  if (!isObj(c) || typeof c.op !== 'string') return undefined;
  const value = c.value === undefined ? '' : Array.isArray(c.value) ? c.value.join(', ') : String(c.value);
  if (typeof c.attribute === 'string')
    return { key: ++keys, subject: `attribute:${c.attribute}`, op: c.op, value, type: String(c.type ?? '') };
  if (typeof c.field === 'string' && c.field in FIELD_TYPES)
    return { key: ++keys, subject: `field:${c.field}`, op: c.op, value, type: FIELD_TYPES[c.field]! };
  return undefined;
}

export function modelOf(audience: unknown): Model {
  if (audience === null || audience === undefined) return { group: 'all', rows: [], surveys: [], kept: [] };
  const group = isObj(audience) && Array.isArray(audience.any) ? 'any' : 'all';
  const list = isObj(audience) && Array.isArray(audience[group]) ? (audience[group] as unknown[]) : [audience];
  const rows: Row[] = [];
  const surveys: SurveyRow[] = [];
  const kept: unknown[] = [];
  for (const c of list) {
    const row = rowOf(c);
    const surveyRow = row ? undefined : surveyRowOf(c);
    if (row) rows.push(row);
    else if (surveyRow) surveys.push(surveyRow);
    else kept.push(c);
  }
  return { group, rows, surveys, kept };
}

const SURVEY_MEMBERS = new Set(['survey', 'question', 'answered', 'submitted', 'range', 'options']);

/** A survey condition a survey row holds and writes back the same: one form, no member the row lacks. */
function surveyRowOf(c: unknown): SurveyRow | undefined {
  if (!isObj(c) || typeof c.survey !== 'string' || Object.keys(c).some((k) => !SURVEY_MEMBERS.has(k))) return undefined;
  if (c.question !== undefined && typeof c.question !== 'string') return undefined;
  const forms = (['answered', 'submitted', 'range', 'options'] as const).filter((f) => c[f] !== undefined);
  if (forms.length !== 1) return undefined;
  const base = { key: ++keys, survey: c.survey, question: c.question ?? '', min: '', max: '', options: [] as string[] };
  const range = c.range;
  switch (forms[0]) {
    case 'answered':
    case 'submitted': {
      const v = c[forms[0]];
      if (typeof v !== 'boolean') return undefined;
      return { ...base, rule: v ? forms[0] : (`not_${forms[0]}` as SurveyRule) };
    }
    case 'range':
      if (!isObj(range) || !Number.isInteger(range.min) || !Number.isInteger(range.max)) return undefined;
      return { ...base, rule: 'range', min: String(range.min), max: String(range.max) };
    case 'options':
      if (!Array.isArray(c.options) || c.options.some((o) => typeof o !== 'string')) return undefined;
      return { ...base, rule: 'options', options: c.options as string[] };
  }
}

/** A survey row as the service's audience rule takes it. */
export function surveyConditionOf(r: SurveyRow): Json {
  const question = r.question ? { question: r.question } : {};
  switch (r.rule) {
    case 'answered':
    case 'not_answered':
      return { survey: r.survey, ...question, answered: r.rule === 'answered' };
    case 'submitted':
    case 'not_submitted':
      return { survey: r.survey, submitted: r.rule === 'submitted' };
    case 'range': {
      const end = (v: string) => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
      return { survey: r.survey, ...question, range: { min: end(r.min), max: end(r.max) } };
    }
    case 'options':
      return { survey: r.survey, ...question, options: r.options };
  }
}

function valueOf(row: Row): unknown {
  if (row.op === 'exists' || row.op === 'not_exists') return undefined;
  if (row.op === 'in' || row.op === 'not_in')
    return row.value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  if (row.op === 'within_last_days' || row.op === 'more_than_days_ago' || row.type === 'number') {
    const n = Number(row.value);
    return row.value.trim() && Number.isFinite(n) ? n : row.value;
  }
  if (row.type === 'boolean') return row.value === 'true' ? true : row.value === 'false' ? false : row.value;
  return row.value;
}

/** The rule to send: null for everyone; the kept rules as they were read. */
export function audienceOf(m: Model): unknown {
  const conditions = [
    ...m.rows.map((r) => {
      const [kind, name] = [r.subject.slice(0, r.subject.indexOf(':')), r.subject.slice(r.subject.indexOf(':') + 1)];
      const value = valueOf(r);
      return { [kind]: name, op: r.op, ...(value === undefined ? {} : { value }) };
    }),
    ...m.surveys.map(surveyConditionOf),
    ...m.kept,
  ];
  return conditions.length ? { [m.group]: conditions } : null;
}
