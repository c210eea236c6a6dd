import { newKey, toEdit } from './help-content.js';
import {
  CHOICE_TYPES,
  otherOption,
  scaleOf,
  type EditBranch,
  type EditOption,
  type EditQuestion,
  type EditStep,
  type EditSurvey,
  type QuestionType,
} from './messages-survey-content.js';

// The survey editor's changes that take more than one field: new steps, questions, options and
// branches with free ids; a step, question or option renamed or removed with the branches that
// named it following; a rating's scale fitted to its display. Pure: test/console-survey-content.test.ts.

/** The first of `prefix`1, 2… that `taken` does not hold. */
export function freeId(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  let n = 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

export const questionIds = (e: EditSurvey) => e.steps.flatMap((s) => s.questions.map((q) => q.id));

/** Two options to start a choice with (their words to write). */
export const newOptions = (): EditOption[] => [1, 2].map((n) => ({ key: newKey(), id: `option-${n}`, label: '', fresh: true, rest: {} }));

export function newQuestion(taken: Iterable<string>, type: QuestionType = 'rating'): EditQuestion {
  return {
    key: newKey(),
    id: freeId('q', taken),
    type,
    title: '',
    description: '',
    required: true,
    requiredSaid: false,
    display: 'numbers',
    min: 1,
    max: 5,
    lowLabel: '',
    highLabel: '',
    placeholder: '',
    options: CHOICE_TYPES.includes(type) ? newOptions() : [],
    attribute: '',
    rest: {},
  };
}

export function newStep(e: EditSurvey): EditStep {
  return {
    key: newKey(),
    id: freeId(
      'step-',
      e.steps.map((s) => s.id),
    ),
    thankYou: false,
    blocks: [],
    questions: [newQuestion(questionIds(e))],
    branches: [],
    next: '',
    rest: {},
  };
}

export function thankYouStep(taken: string[]): EditStep {
  const id = taken.includes('thanks') ? freeId('thanks-', taken) : 'thanks';
  const [block] = toEdit({ title: '', summary: '', blocks: [{ type: 'paragraph', spans: [{ text: 'Thank you!' }] }] }).blocks;
  return { key: newKey(), id, thankYou: true, blocks: [block!], questions: [], branches: [], next: '', rest: {} };
}

/** A question's type changed: a choice gets two options to fill if it has none; a rating's scale is kept. */
export function retype(q: EditQuestion, type: QuestionType): EditQuestion {
  const options = CHOICE_TYPES.includes(type) && q.options.length < 2 ? [...q.options, ...newOptions()].slice(0, 2) : q.options;
  return { ...q, type, options };
}

/** The highest a rating may reach from `min` when drawn as `display` (stars and emoji: five points at most). */
export const ratingMaxes = (display: string, min: number) =>
  Array.from({ length: 9 }, (_, i) => i + 2).filter((max) => max - min >= 2 && (display === 'numbers' || max - min + 1 <= 5));

/** A rating's scale made to fit its display (five points at most for stars and emoji). */
export function fitScale(q: EditQuestion): EditQuestion {
  const maxes = ratingMaxes(q.display, q.min);
  return maxes.includes(q.max) ? q : { ...q, max: maxes.at(-1)! };
}

/** A new branch on a question: its whole scale, or none of its options yet; to the thank-you step. */
export function newBranch(q: EditQuestion, to: string): EditBranch {
  const scale = scaleOf(q);
  return {
    key: newKey(),
    question: q.id,
    by: scale ? 'range' : 'values',
    min: scale?.min ?? 0,
    max: scale?.max ?? 0,
    values: [],
    to,
    rest: {},
  };
}

/** A step renamed: the branches and `next`s that named it follow. */
export function renameStep(e: EditSurvey, from: string, to: string): EditStep[] {
  const t = (v: string) => (v === from ? to : v);
  return e.steps.map((s) => ({ ...s, next: t(s.next), branches: s.branches.map((b) => ({ ...b, to: t(b.to) })) }));
}

/** A question renamed within its step: the step's branches on it follow. */
export function renameQuestion(s: EditStep, from: string, to: string): EditBranch[] {
  return s.branches.map((b) => (b.question === from ? { ...b, question: to } : b));
}

/** A step's place and id in words: "Step 2 (why)", "The thank-you step (thanks)". */
export function stepName(steps: Pick<EditStep, 'id' | 'thankYou'>[], id: string): string {
  const i = steps.findIndex((s) => s.id === id);
  if (i < 0) return `${id} (no such step)`;
  return steps[i]!.thankYou ? `The thank-you step (${id})` : `Step ${i + 1} (${id})`;
}

/** An option's id made from its words: lower case, a dash between words; `fallback` when none is left. */
export function slugId(label: string, taken: string[], fallback: string): string {
  const base =
    label
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || fallback;
  if (!taken.includes(base)) return base;
  return freeId(`${base}-`, taken);
}

/** An option's label changed: a fresh option's id follows the words. */
export function relabel(options: EditOption[], key: string, label: string): EditOption[] {
  return options.map((o, i) => {
    if (o.key !== key) return o;
    const others = options.filter((x) => x.key !== key).map((x) => x.id);
    return { ...o, label, id: o.fresh && o.id !== otherOption ? slugId(label, others, `option-${i + 1}`) : o.id };
  });
}

/** A question's options changed: its branches' values follow a renamed option, and drop a removed one. */
export function followOptions(branches: EditBranch[], question: string, before: EditOption[], after: EditOption[]): EditBranch[] {
  const now = new Map(after.map((o) => [o.key, o.id]));
  const moved = new Map(before.map((o) => [o.id, now.get(o.key)]));
  return branches.map((b) =>
    b.question !== question || b.by !== 'values'
      ? b
      : { ...b, values: b.values.flatMap((v) => (moved.has(v) ? (moved.get(v) === undefined ? [] : [moved.get(v)!]) : [v])) },
  );
}
