import { scaleOf, type Survey } from '../surveys/model.js';

// An audience condition on a person's answers to a survey, so staff can follow up with the people who
// answered one way: `{ survey: <message id>, … }` and one of
//   answered: true | false          — answered it at all (with `question`: answered that question)
//   submitted: true | false         — submitted it
//   range: { min, max }              — answered `question` (rating or NPS) with a number in the range, ends included
//   options: [option ids]            — picked any of these options of `question` (single, multiple choice or dropdown)
// Read against the app-mode's surveys (the survey is one of its in-app messages of kind survey; the
// question one of any of its variants'; the form fits the question's type), and compiled (compile.ts)
// into a test of a positive need — answered, submitted, in range, any of — each found by SQL on
// survey_response (survey-answers.ts), a "did not" being the need's negation. Test copies' answers
// never count. Pure.

export interface SurveyCondition {
  survey: string;
  question?: string;
  answered?: boolean;
  submitted?: boolean;
  range?: { min: number; max: number };
  options?: string[];
}

/** What the SQL finds for one person: a response of the survey that has it (never a negation). */
export interface SurveyNeed {
  survey: string;
  question?: string;
  form: 'answered' | 'submitted' | 'range' | 'options';
  min?: number;
  max?: number;
  options?: string[];
}

/** A question as the audience reads it, over every variant of its survey. */
export interface QuestionShape {
  type: string;
  /** Rating and NPS: the widest scale of the variants. */
  scale?: { min: number; max: number };
  /** Choices: every option id of the variants. */
  options?: Set<string>;
}

/** The app-mode's surveys a rule names, each with its questions. */
export type SurveyVocabulary = Map<string, Map<string, QuestionShape>>;

const MAX_OPTIONS = 100;

/** The questions of a survey's variants. */
export function questionShapes(variants: readonly Survey[]): Map<string, QuestionShape> {
  const shapes = new Map<string, QuestionShape>();
  for (const survey of variants)
    for (const step of survey.steps ?? [])
      for (const q of step.questions ?? []) {
        const shape = shapes.get(q.id) ?? { type: q.type };
        shapes.set(q.id, shape);
        const scale = scaleOf(q);
        if (scale)
          shape.scale = shape.scale ? { min: Math.min(shape.scale.min, scale.min), max: Math.max(shape.scale.max, scale.max) } : scale;
        if (q.options) for (const o of q.options) (shape.options ??= new Set()).add(o.id);
      }
  return shapes;
}

/** The survey ids a rule as written names (bounded as the rule is: depth and conditions are checked when it is read). */
export function surveyIdsIn(input: unknown): string[] {
  const ids = new Set<string>();
  const visit = (raw: unknown, depth: number) => {
    if (depth > 8 || ids.size >= 100 || typeof raw !== 'object' || raw === null) return;
    if (Array.isArray(raw)) return raw.slice(0, 200).forEach((r) => visit(r, depth + 1));
    const o = raw as Record<string, unknown>;
    if (typeof o.survey === 'string' && o.survey.length <= 200) ids.add(o.survey);
    for (const group of ['all', 'any'] as const) if (Array.isArray(o[group])) visit(o[group], depth + 1);
  };
  visit(input, 0);
  return [...ids];
}

const FORMS = ['answered', 'submitted', 'range', 'options'] as const;

/** A survey condition as written, read against the app-mode's surveys; each problem reported by `fail` with its path. */
export function readSurveyCondition(
  raw: Record<string, unknown>,
  at: string,
  surveys: SurveyVocabulary,
  fail: (field: string, message: string) => void,
): SurveyCondition | undefined {
  const questions = typeof raw.survey === 'string' ? surveys.get(raw.survey) : undefined;
  if (!questions) return (fail(`${at}.survey`, 'names no survey of this app'), undefined);
  const forms = FORMS.filter((f) => raw[f] !== undefined);
  if (forms.length !== 1)
    return (fail(at, 'must have exactly one of answered, submitted, range (a number answer) or options (options picked)'), undefined);
  const form = forms[0]!;
  const condition: SurveyCondition = { survey: raw.survey as string };
  let shape: QuestionShape | undefined;
  if (raw.question !== undefined) {
    if (form === 'submitted') return (fail(`${at}.question`, 'goes with answered, range or options, not submitted'), undefined);
    shape = typeof raw.question === 'string' ? questions.get(raw.question) : undefined;
    if (!shape) return (fail(`${at}.question`, 'names no question of this survey'), undefined);
    condition.question = raw.question as string;
  } else if (form === 'range' || form === 'options') return (fail(`${at}.question`, `is required with ${form}`), undefined);
  switch (form) {
    case 'answered':
    case 'submitted':
      if (typeof raw[form] !== 'boolean') return (fail(`${at}.${form}`, 'must be true or false'), undefined);
      condition[form] = raw[form] as boolean;
      return condition;
    case 'range': {
      const scale = shape!.scale;
      if (!scale) return (fail(`${at}.range`, `goes with a rating or NPS question, not ${shape!.type}`), undefined);
      const r = raw.range as Record<string, unknown> | null;
      const whole = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= scale.min && (v as number) <= scale.max;
      if (typeof r !== 'object' || r === null || !whole(r.min) || !whole(r.max) || r.min > r.max)
        return (fail(`${at}.range`, `must be { min, max }, whole numbers from ${scale.min} to ${scale.max}, min not above max`), undefined);
      condition.range = { min: r.min, max: r.max };
      return condition;
    }
    case 'options': {
      const known = shape!.options;
      if (!known) return (fail(`${at}.options`, `goes with a choice or dropdown question, not ${shape!.type}`), undefined);
      const picked = raw.options;
      if (!Array.isArray(picked) || !picked.length || picked.length > MAX_OPTIONS || picked.some((p) => typeof p !== 'string'))
        return (fail(`${at}.options`, `must be a list of 1 to ${MAX_OPTIONS} option ids`), undefined);
      const unknown = (picked as string[]).find((p) => !known.has(p));
      if (unknown !== undefined) return (fail(`${at}.options`, `names no option of question ${condition.question}: ${unknown}`), undefined);
      condition.options = [...new Set(picked as string[])];
      return condition;
    }
  }
}

/** The positive need a condition tests, and whether the condition is its negation. */
export function surveyNeedOf(c: SurveyCondition): { need: SurveyNeed; negated: boolean } {
  const base = { survey: c.survey, ...(c.question === undefined ? {} : { question: c.question }) };
  if (c.range) return { need: { ...base, form: 'range', min: c.range.min, max: c.range.max }, negated: false };
  if (c.options) return { need: { ...base, form: 'options', options: c.options }, negated: false };
  if (c.submitted !== undefined) return { need: { ...base, form: 'submitted' }, negated: !c.submitted };
  return { need: { ...base, form: 'answered' }, negated: c.answered === false };
}

/** A need's identity: needs of equal keys are read once. */
export const surveyNeedKey = (n: SurveyNeed): string =>
  JSON.stringify([n.survey, n.question ?? null, n.form, n.min ?? null, n.max ?? null, n.options ?? null]);

/** Who found a person's needs: the matches read in the needs' order. */
export function surveyMatcher(needs: readonly SurveyNeed[], matches: readonly boolean[]): (need: SurveyNeed) => boolean {
  const byNeed = new Map(needs.map((n, i) => [surveyNeedKey(n), matches[i] === true]));
  return (need) => byNeed.get(surveyNeedKey(need)) ?? false;
}
