import type { FieldError } from '../errors.js';
import type { ContentBlock } from '../help/blocks.js';
import {
  ATTRIBUTE_TYPE,
  MAX_BRANCHES,
  MAX_DROPDOWN_OPTIONS,
  MAX_OPTIONS,
  MAX_QUESTIONS,
  MAX_STEP_QUESTIONS,
  MAX_STEPS,
  QUESTION_TYPES,
  otherOption,
  scaleOf,
  type QuestionType,
  type Survey,
  type SurveyBranch,
  type SurveyOption,
  type SurveyQuestion,
  type SurveyStep,
} from './model.js';

// A survey as staff wrote it, read member by member (each problem named by its path, like the other
// content readers), then its steps checked as a graph: every branch and `next` names a step, exactly
// one step is the thank-you step, every step is reachable from the first, no step leads back to one
// before it (no cycle), no step is a dead end (every way on names a step), so every path ends at the
// thank-you step; and a question's ranges fit its scale and cover it without overlap.

/**
 * The member reader the in-app content readers share (src/domain/inapp/reader.ts), as this module
 * uses it: each problem named by its path, so one refusal lists every bad field.
 */
export interface Reader {
  readonly ok: boolean;
  fail(field: string, message: string): undefined;
  object(value: unknown, path: string): Record<string, unknown> | undefined;
  array(value: unknown, path: string, bounds: { min?: number; max: number }): unknown[] | undefined;
  text(value: unknown, path: string, max: number, opts?: { required?: boolean; blank?: boolean }): string | undefined;
  bool(value: unknown, path: string): boolean | undefined;
  int(value: unknown, path: string, min: number, max: number): number | undefined;
  word(value: unknown, path: string): string | undefined;
  id(value: unknown, path: string): string | undefined;
}

/** What the reader needs beside the content: content blocks read by the message's rules, and the type of an attribute the app-mode defines. */
export interface SurveyParts {
  blocks(value: unknown, path: string): ContentBlock[];
  attributeType?(name: string): string | undefined;
}

/** An object with only the members that have a value. */
const defined = <T extends Record<string, unknown>>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** A step named as a way on: left out (empty) for the default. */
const target = (r: Reader, value: unknown, path: string): string | undefined =>
  value === undefined || value === null || value === '' ? undefined : r.id(value, path);

/** Ids repeated among siblings are refused at the second one. */
function unique(r: Reader, items: { id: string }[], path: string): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (item.id && seen.has(item.id)) r.fail(`${path}.${i}.id`, `repeats the id ${item.id}`);
    seen.add(item.id);
  });
}

const CHOICES: readonly QuestionType[] = ['single', 'multiple', 'dropdown'];
const ATTRIBUTE = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;

export function readSurvey(r: Reader, raw: Record<string, unknown>, path: string, parts: SurveyParts): Survey | undefined {
  const stepsRaw = r.array(raw.steps, `${path}.steps`, { min: 2, max: MAX_STEPS });
  const steps = (stepsRaw ?? []).map((s, i) => readStep(r, s, `${path}.steps.${i}`, parts));
  const survey = defined({
    steps,
    nextLabel: r.text(raw.nextLabel, `${path}.nextLabel`, 40),
    submitLabel: r.text(raw.submitLabel, `${path}.submitLabel`, 40),
  });
  if (!r.ok || !stepsRaw) return undefined;
  for (const e of surveyProblems(survey, path)) r.fail(e.field, e.message);
  return r.ok ? survey : undefined;
}

function readStep(r: Reader, raw: unknown, path: string, parts: SurveyParts): SurveyStep {
  const s = r.object(raw, path);
  if (!s) return { id: '' };
  const thankYou = r.bool(s.thankYou, `${path}.thankYou`);
  const step = defined({
    id: r.id(s.id, `${path}.id`) ?? '',
    thankYou,
    blocks: s.blocks === undefined || s.blocks === null ? undefined : parts.blocks(s.blocks, `${path}.blocks`),
    questions: undefined as SurveyQuestion[] | undefined,
    branches: undefined as SurveyBranch[] | undefined,
    next: target(r, s.next, `${path}.next`),
  });
  if (thankYou) {
    for (const member of ['questions', 'branches', 'next'] as const)
      if (s[member] !== undefined && s[member] !== null) r.fail(`${path}.${member}`, 'the thank-you step ends the survey: it has none');
    if (!step.blocks?.length) r.fail(`${path}.blocks`, 'must hold at least one content block (what the person is thanked with)');
    return step;
  }
  const questions = r.array(s.questions, `${path}.questions`, { min: 1, max: MAX_STEP_QUESTIONS }) ?? [];
  step.questions = questions.map((q, i) => readQuestion(r, q, `${path}.questions.${i}`, parts));
  unique(r, step.questions, `${path}.questions`);
  if (s.branches !== undefined && s.branches !== null) {
    const branches = r.array(s.branches, `${path}.branches`, { max: MAX_BRANCHES }) ?? [];
    step.branches = branches.map((b, i) => readBranch(r, b, `${path}.branches.${i}`));
  }
  return step;
}

function readQuestion(r: Reader, raw: unknown, path: string, parts: SurveyParts): SurveyQuestion {
  const q = r.object(raw, path);
  if (!q) return { id: '', type: 'short_text', title: '' };
  const type = QUESTION_TYPES.includes(q.type as QuestionType) ? (q.type as QuestionType) : undefined;
  if (!type) r.fail(`${path}.type`, `must be one of ${QUESTION_TYPES.join(', ')}`);
  const question: SurveyQuestion = defined({
    id: r.id(q.id, `${path}.id`) ?? '',
    type: type ?? 'short_text',
    title: r.text(q.title, `${path}.title`, 500, { required: true }) ?? '',
    description: r.text(q.description, `${path}.description`, 1000),
    required: r.bool(q.required, `${path}.required`),
    placeholder: type === 'short_text' || type === 'long_text' ? r.text(q.placeholder, `${path}.placeholder`, 200) : undefined,
  });
  if (type === 'rating') {
    question.display = r.word(q.display, `${path}.display`) ?? 'numbers';
    question.min = r.int(q.min, `${path}.min`, 0, 1) ?? 1;
    question.max = r.int(q.max, `${path}.max`, 2, 10) ?? 5;
    if (question.max - question.min < 2) r.fail(`${path}.max`, 'a scale holds at least three points');
    if (question.display !== 'numbers' && question.max - question.min + 1 > 5)
      r.fail(`${path}.max`, `a scale of ${question.display} holds at most five points`);
    const low = r.text(q.lowLabel, `${path}.lowLabel`, 100);
    const high = r.text(q.highLabel, `${path}.highLabel`, 100);
    if (low !== undefined) question.lowLabel = low;
    if (high !== undefined) question.highLabel = high;
  } else if (type === 'nps') {
    const low = r.text(q.lowLabel, `${path}.lowLabel`, 100);
    const high = r.text(q.highLabel, `${path}.highLabel`, 100);
    if (low !== undefined) question.lowLabel = low;
    if (high !== undefined) question.highLabel = high;
  } else if (type && CHOICES.includes(type)) {
    const max = type === 'dropdown' ? MAX_DROPDOWN_OPTIONS : MAX_OPTIONS;
    const list = r.array(q.options, `${path}.options`, { min: 2, max }) ?? [];
    question.options = list.map((o, i): SurveyOption => {
      const at = `${path}.options.${i}`;
      const option = r.object(o, at);
      if (!option) return { id: '', label: '' };
      return { id: r.id(option.id, `${at}.id`) ?? '', label: r.text(option.label, `${at}.label`, 200, { required: true }) ?? '' };
    });
    unique(r, question.options, `${path}.options`);
  }
  if (q.attribute !== undefined && q.attribute !== null && q.attribute !== '') {
    const field = `${path}.attribute`;
    const wanted = type ? ATTRIBUTE_TYPE[type] : undefined;
    if (typeof q.attribute !== 'string' || !ATTRIBUTE.test(q.attribute))
      r.fail(field, 'must be an attribute name: letters, digits, _ . -, starting with a letter, at most 100 characters');
    else if (!wanted) r.fail(field, `a ${type} answer is not written to an attribute`);
    else {
      const has = parts.attributeType?.(q.attribute);
      if (has === 'reserved') r.fail(field, 'names a field the service keeps itself');
      else if (has === 'undefined_strict') r.fail(field, 'is not defined for this app, which has strict data on');
      else if (has !== undefined && has !== wanted)
        r.fail(field, `names a ${has} attribute: a ${type} answer is written as ${wanted === 'list' ? 'a list' : `a ${wanted}`}`);
      else question.attribute = q.attribute;
    }
  }
  return question;
}

function readBranch(r: Reader, raw: unknown, path: string): SurveyBranch {
  const b = r.object(raw, path);
  if (!b) return { question: '', to: '' };
  const branch: SurveyBranch = { question: r.id(b.question, `${path}.question`) ?? '', to: r.id(b.to, `${path}.to`) ?? '' };
  const hasRange = b.range !== undefined && b.range !== null;
  const hasValues = b.values !== undefined && b.values !== null;
  if (hasRange === hasValues) r.fail(path, 'must give a range or values (one of them)');
  else if (hasRange) {
    const range = r.object(b.range, `${path}.range`);
    if (range) {
      const min = r.int(range.min, `${path}.range.min`, 0, 10);
      const max = r.int(range.max, `${path}.range.max`, 0, 10);
      if (min === undefined || max === undefined) {
        if (range.min === undefined || range.max === undefined) r.fail(`${path}.range`, 'must give min and max');
      } else if (min > max) r.fail(`${path}.range`, 'min must not be above max');
      else branch.range = { min, max };
    }
  } else {
    const values = r.array(b.values, `${path}.values`, { min: 1, max: MAX_DROPDOWN_OPTIONS }) ?? [];
    branch.values = values.map((v, i) => r.id(v, `${path}.values.${i}`) ?? '');
  }
  return branch;
}

/** The model's rules across members: ids, branches against their questions, then the graph. */
export function surveyProblems(s: Survey, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => void errors.push({ field, message });
  const index = new Map<string, number>();
  const questionIds = new Map<string, string>();
  s.steps.forEach((step, i) => {
    const at = `${path}.steps.${i}`;
    if (index.has(step.id)) fail(`${at}.id`, `repeats the step id ${step.id}`);
    else index.set(step.id, i);
    (step.questions ?? []).forEach((q, j) => {
      const seen = questionIds.get(q.id);
      if (seen !== undefined && seen !== step.id) fail(`${at}.questions.${j}.id`, `repeats the question id ${q.id} of step ${seen}`);
      else questionIds.set(q.id, step.id);
    });
  });
  if (questionIds.size > MAX_QUESTIONS) fail(`${path}.steps`, `a survey holds at most ${MAX_QUESTIONS} questions`);
  const thanks = s.steps.flatMap((step, i) => (step.thankYou ? [i] : []));
  if (thanks.length !== 1) fail(`${path}.steps`, 'must hold exactly one thank-you step (thankYou: true)');
  if (s.steps[0]?.thankYou) fail(`${path}.steps.0`, 'the first step asks questions: the thank-you step comes after them');

  s.steps.forEach((step, i) => {
    const at = `${path}.steps.${i}`;
    const byId = new Map((step.questions ?? []).map((q) => [q.id, q]));
    // Per question: the values and ranges its branches claim, which must not overlap.
    const claimed = new Map<string, Map<string | number, number>>();
    (step.branches ?? []).forEach((b, j) => {
      const bt = `${at}.branches.${j}`;
      const q = byId.get(b.question);
      if (!q) return fail(`${bt}.question`, `step ${step.id}'s branch ${j} names no question of this step`);
      const mine = claimed.get(q.id) ?? new Map<string | number, number>();
      claimed.set(q.id, mine);
      const claim = (value: string | number, field: string) => {
        const before = mine.get(value);
        if (before !== undefined) fail(field, `step ${step.id}'s branch ${j} overlaps branch ${before} at ${value}`);
        else mine.set(value, j);
      };
      const scale = scaleOf(q);
      if (b.range) {
        if (!scale) return fail(`${bt}.range`, `step ${step.id}'s branch ${j}: a ${q.type} question branches by values, not a range`);
        if (b.range.min < scale.min || b.range.max > scale.max)
          return fail(`${bt}.range`, `step ${step.id}'s branch ${j}: the range must fit the scale ${scale.min} to ${scale.max}`);
        for (let v = b.range.min; v <= b.range.max; v++) claim(v, `${bt}.range`);
      } else if (b.values) {
        if (!q.options) return fail(`${bt}.values`, `step ${step.id}'s branch ${j}: a ${q.type} question branches by a range`);
        b.values.forEach((v, k) => {
          if (!q.options!.some((o) => o.id === v))
            fail(`${bt}.values.${k}`, `step ${step.id}'s branch ${j}: ${v} is not an option of question ${q.id}`);
          else claim(v, `${bt}.values.${k}`);
        });
      }
    });
    // A question's ranges cover its whole scale: a number none claims would go on unseen.
    for (const [id, mine] of claimed) {
      const q = byId.get(id)!;
      const scale = scaleOf(q);
      if (!scale || ![...mine.keys()].some((k) => typeof k === 'number')) continue;
      const gaps: number[] = [];
      for (let v = scale.min; v <= scale.max; v++) if (!mine.has(v)) gaps.push(v);
      if (gaps.length)
        fail(
          `${at}.branches`,
          `step ${step.id}: the ranges on question ${id} must cover its scale; ${gaps.join(', ')} ${gaps.length > 1 ? 'are' : 'is'} in none`,
        );
    }
  });
  if (errors.length) return errors;
  return graphProblems(s, path, index);
}

/** Each step's ways on (by index, with the field that names each), then reachability, dead ends and cycles. */
function graphProblems(s: Survey, path: string, index: Map<string, number>): FieldError[] {
  const errors: FieldError[] = [];
  const edges = s.steps.map((step, i) => {
    const at = `${path}.steps.${i}`;
    const out: { to: number; field: string }[] = [];
    if (step.thankYou) return out;
    const to = (name: string, field: string, what: string) => {
      const t = index.get(name);
      if (t === undefined) errors.push({ field, message: `step ${step.id}'s ${what} names no step of this survey: ${name}` });
      else out.push({ to: t, field });
    };
    (step.branches ?? []).forEach((b, j) => to(b.to, `${at}.branches.${j}.to`, `branch ${j}`));
    if (step.next !== undefined) to(step.next, `${at}.next`, 'next');
    else if (i + 1 < s.steps.length) out.push({ to: i + 1, field: `${at}.next` });
    else
      errors.push({
        field: `${at}.next`,
        message: `step ${step.id} is a dead end: no step follows it; name its next step (the thank-you step ends a survey)`,
      });
    return out;
  });
  if (errors.length) return errors;

  // Depth first from the first step: an edge back to a step on the current path is a cycle.
  const state = new Array<0 | 1 | 2>(s.steps.length).fill(0);
  const visit = (i: number): void => {
    state[i] = 1;
    for (const e of edges[i]!) {
      if (state[e.to] === 1)
        errors.push({
          field: e.field,
          message: `step ${s.steps[i]!.id} leads back to step ${s.steps[e.to]!.id}: a survey may not loop`,
        });
      else if (state[e.to] === 0) visit(e.to);
    }
    state[i] = 2;
  };
  visit(0);
  s.steps.forEach((step, i) => {
    if (state[i] === 0) errors.push({ field: `${path}.steps.${i}`, message: `step ${step.id} cannot be reached from the first step` });
  });
  return errors;
}
