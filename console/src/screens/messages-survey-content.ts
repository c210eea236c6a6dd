import { newKey, toBlocks, toEdit, type Block, type EditBlock } from './help-content.js';

// A survey's content (src/domain/surveys/model.ts) as the console edits it, and back: its steps
// with their questions (each type's own fields), branches (by a range or by values, to a step) and
// `next`; the thank-you step's blocks (the help center's block editor's fields). A member the
// editor has no field for (a question step's blocks, anything newer) is kept as read and given
// back unchanged. Pure: test/console-survey-content.test.ts reads it.

// The model's words, as src/domain/surveys/model.ts has them (the test compares them): the page
// does not import the service's model, whose content blocks bring the service's text checks.
export const QUESTION_TYPES = ['rating', 'nps', 'single', 'multiple', 'dropdown', 'short_text', 'long_text'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
/** The option id of "Other", which takes the person's own words. */
export const otherOption = 'other';
export const NPS_MIN = 0;
export const NPS_MAX = 10;
/** The attribute type each question's answer is written as (a long answer: never). */
export const ATTRIBUTE_TYPE: Record<QuestionType, 'number' | 'string' | 'list' | undefined> = {
  rating: 'number',
  nps: 'number',
  single: 'string',
  dropdown: 'string',
  multiple: 'list',
  short_text: 'string',
  long_text: undefined,
};
export const DISPLAYS = ['numbers', 'stars', 'emoji'] as const;
export const CHOICE_TYPES: readonly QuestionType[] = ['single', 'multiple', 'dropdown'];
export const TYPE_NAMES: Record<QuestionType, string> = {
  rating: 'Rating scale',
  nps: 'NPS (0 to 10)',
  single: 'Single choice',
  multiple: 'Multiple choice',
  dropdown: 'Dropdown',
  short_text: 'Short text',
  long_text: 'Long text',
};
/** What a question's answer is written to an attribute as, in words (long text: never). */
export const ATTRIBUTE_WORDS: Record<QuestionType, string | undefined> = Object.fromEntries(
  QUESTION_TYPES.map((t) => [t, ATTRIBUTE_TYPE[t] && { number: 'a number', string: 'a string', list: 'a list' }[ATTRIBUTE_TYPE[t]!]]),
) as Record<QuestionType, string | undefined>;

type Json = Record<string, unknown>;

export interface EditOption {
  key: string;
  id: string;
  label: string;
  /** Made in this editor and its id not written by hand: the id follows the words (a saved option keeps its id, which its answers name). */
  fresh?: boolean;
  rest: Json;
}

export interface EditQuestion {
  key: string;
  id: string;
  type: QuestionType;
  title: string;
  description: string;
  required: boolean;
  /** `required: true` was written out (given back as written). */
  requiredSaid: boolean;
  /** Rating: numbers, stars or emoji, from min (0 or 1) to max. */
  display: string;
  min: number;
  max: number;
  lowLabel: string;
  highLabel: string;
  placeholder: string;
  options: EditOption[];
  attribute: string;
  rest: Json;
}

export interface EditBranch {
  key: string;
  question: string;
  by: 'range' | 'values';
  min: number;
  max: number;
  values: string[];
  to: string;
  rest: Json;
}

export interface EditStep {
  key: string;
  id: string;
  thankYou: boolean;
  /** The thank-you step's blocks (a question step's are kept in `rest`). */
  blocks: EditBlock[];
  questions: EditQuestion[];
  branches: EditBranch[];
  /** '' for the step that follows in the list. */
  next: string;
  rest: Json;
}

export interface EditSurvey {
  steps: EditStep[];
  nextLabel: string;
  submitLabel: string;
  rest: Json;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const without = (o: Json, ...keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
/** Members with a value only: an empty field is left out (the default), never sent as ''. */
const given = (o: Json) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined));

/** The scale a rating or NPS question asks on; none for the others. */
export function scaleOf(q: Pick<EditQuestion, 'type' | 'min' | 'max'>): { min: number; max: number } | undefined {
  if (q.type === 'nps') return { min: NPS_MIN, max: NPS_MAX };
  return q.type === 'rating' ? { min: q.min, max: q.max } : undefined;
}
export const isChoice = (q: Pick<EditQuestion, 'type'>) => CHOICE_TYPES.includes(q.type);
/** A question a branch may follow: one on a scale, or a choice. */
export const branchable = (q: EditQuestion) => !!scaleOf(q) || isChoice(q);

const QUESTION_MEMBERS = ['id', 'type', 'title', 'description', 'required', 'display', 'min', 'max', 'lowLabel', 'highLabel'];
const MORE_MEMBERS = ['placeholder', 'options', 'attribute'];

function editQuestion(raw: unknown): EditQuestion {
  const q = obj(raw);
  const type = (QUESTION_TYPES as readonly string[]).includes(str(q.type)) ? (q.type as QuestionType) : 'short_text';
  return {
    key: newKey(),
    id: str(q.id),
    type,
    title: str(q.title),
    description: str(q.description),
    required: q.required !== false,
    requiredSaid: q.required === true,
    display: str(q.display) || 'numbers',
    min: num(q.min, 1),
    max: num(q.max, 5),
    lowLabel: str(q.lowLabel),
    highLabel: str(q.highLabel),
    placeholder: str(q.placeholder),
    options: list(q.options).map((o) => {
      const op = obj(o);
      return { key: newKey(), id: str(op.id), label: str(op.label), rest: without(op, 'id', 'label') };
    }),
    attribute: str(q.attribute),
    rest: without(q, ...QUESTION_MEMBERS, ...MORE_MEMBERS),
  };
}

function editBranch(raw: unknown): EditBranch {
  const b = obj(raw);
  const range = b.range === undefined || b.range === null ? undefined : obj(b.range);
  return {
    key: newKey(),
    question: str(b.question),
    by: range ? 'range' : 'values',
    min: num(range?.min, 0),
    max: num(range?.max, 0),
    values: list(b.values).map(str),
    to: str(b.to),
    rest: without(b, 'question', 'range', 'values', 'to'),
  };
}

export function toEditSurvey(content: unknown): EditSurvey {
  const c = obj(content);
  return {
    steps: list(c.steps).map((raw) => {
      const s = obj(raw);
      const thankYou = s.thankYou === true;
      return {
        key: newKey(),
        id: str(s.id),
        thankYou,
        blocks: thankYou ? toEdit({ title: '', summary: '', blocks: list(s.blocks) as Block[] }).blocks : [],
        questions: list(s.questions).map(editQuestion),
        branches: list(s.branches).map(editBranch),
        next: str(s.next),
        rest: without(s, 'id', 'thankYou', 'questions', 'branches', 'next', ...(thankYou ? ['blocks'] : [])),
      };
    }),
    nextLabel: str(c.nextLabel),
    submitLabel: str(c.submitLabel),
    rest: without(c, 'steps', 'nextLabel', 'submitLabel'),
  };
}

function questionOf(q: EditQuestion): Json {
  const scale = q.type === 'rating' || q.type === 'nps';
  return given({
    ...q.rest,
    id: q.id,
    type: q.type,
    title: q.title,
    description: q.description,
    required: q.required ? (q.requiredSaid ? true : undefined) : false,
    display: q.type === 'rating' ? q.display : undefined,
    min: q.type === 'rating' ? q.min : undefined,
    max: q.type === 'rating' ? q.max : undefined,
    lowLabel: scale ? q.lowLabel : undefined,
    highLabel: scale ? q.highLabel : undefined,
    placeholder: q.type === 'short_text' || q.type === 'long_text' ? q.placeholder : undefined,
    options: isChoice(q) ? q.options.map((o) => given({ ...o.rest, id: o.id, label: o.label })) : undefined,
    attribute: ATTRIBUTE_TYPE[q.type] ? q.attribute.trim() : undefined,
  });
}

const branchOf = (b: EditBranch): Json => ({
  ...b.rest,
  question: b.question,
  ...(b.by === 'range' ? { range: { min: b.min, max: b.max } } : { values: b.values }),
  to: b.to,
});

/** The content to save. */
export function fromEditSurvey(e: EditSurvey): Json {
  return given({
    ...e.rest,
    steps: e.steps.map((s) =>
      s.thankYou
        ? { ...s.rest, id: s.id, thankYou: true, blocks: toBlocks(s.blocks) }
        : given({
            ...s.rest,
            id: s.id,
            questions: s.questions.map(questionOf),
            branches: s.branches.length ? s.branches.map(branchOf) : undefined,
            next: s.next,
          }),
    ),
    nextLabel: e.nextLabel,
    submitLabel: e.submitLabel,
  });
}

// A survey's questions as an audience condition reads them (src/domain/audiences/survey-rule.ts's
// questionShapes, the test compares them): over every variant, a rating's or NPS question's widest
// scale and every option id of a choice, with the words of the first variant that asks each.

export interface QuestionChoice {
  id: string;
  title: string;
  type: string;
  scale?: { min: number; max: number };
  options?: { id: string; label: string }[];
}

type ContentRead = {
  steps?: {
    questions?: { id: string; type: string; title?: string; min?: number; max?: number; options?: { id: string; label?: string }[] }[];
  }[];
};

export function surveyQuestions(variants: readonly unknown[]): QuestionChoice[] {
  const found = new Map<string, QuestionChoice>();
  for (const v of variants)
    for (const step of (v as ContentRead).steps ?? [])
      for (const q of step.questions ?? []) {
        const c = found.get(q.id) ?? { id: q.id, title: q.title ?? q.id, type: q.type };
        found.set(q.id, c);
        const scale =
          q.type === 'nps' ? { min: NPS_MIN, max: NPS_MAX } : q.type === 'rating' ? { min: q.min ?? 1, max: q.max ?? 5 } : undefined;
        if (scale) c.scale = c.scale ? { min: Math.min(c.scale.min, scale.min), max: Math.max(c.scale.max, scale.max) } : scale;
        if (q.options)
          for (const o of q.options) {
            c.options ??= [];
            if (!c.options.some((x) => x.id === o.id)) c.options.push({ id: o.id, label: o.label ?? o.id });
          }
      }
  return [...found.values()];
}
