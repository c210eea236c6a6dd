import { textProblem } from '../../lib/text.js';
import type { FieldError } from '../errors.js';
import {
  MAX_LONG_ANSWER_RUNES,
  MAX_OTHER_RUNES,
  MAX_SHORT_ANSWER_RUNES,
  otherOption,
  runes,
  scaleOf,
  type Survey,
  type SurveyQuestion,
} from './model.js';
import { walk, type Walk } from './path.js';

export { walk, type Walk };

// A person's answers against a survey: each held to its question (a number on the scale, options of
// the question, words within their rune limits), and the path they take walked from the first step
// by the branches. Pure: the guest routes (src/domain/inapp/surveys.ts) keep what this answers.

/** SurveyAnswer: the question's id and, by its type, a number, options (with `other` words) or text. */
export interface SurveyAnswer {
  question: string;
  number?: number;
  options?: string[];
  other?: string;
  text?: string;
}

/** An answer as kept: the question's title beside it (the export's `question`). */
export interface KeptAnswer extends SurveyAnswer {
  title: string;
}

/** An answer as words (the export's and the CSV's): the number, the options picked (with the person's own words beside Other), or the text. */
export const answerText = (a: SurveyAnswer): string =>
  a.number !== undefined
    ? String(a.number)
    : a.options
      ? a.options.join(', ') + (a.other !== undefined ? ` (${a.other})` : '')
      : (a.text ?? '');

const questionsOf = (s: Survey) => new Map(s.steps.flatMap((step) => (step.questions ?? []).map((q) => [q.id, q] as const)));

/** Why an answer does not fit its question, or undefined when it does. */
export function answerProblem(q: SurveyQuestion, a: SurveyAnswer): { member: string; message: string } | undefined {
  const members = (['number', 'options', 'other', 'text'] as const).filter((m) => a[m] !== undefined);
  const wants = q.type === 'rating' || q.type === 'nps' ? 'number' : q.options ? 'options' : 'text';
  const stray = members.find((m) => m !== wants && !(m === 'other' && wants === 'options'));
  if (stray) return { member: stray, message: `question ${q.id} (${q.type}) is answered with ${wants}, not ${stray}` };
  if (wants === 'number') {
    const scale = scaleOf(q)!;
    if (!Number.isInteger(a.number) || a.number! < scale.min || a.number! > scale.max)
      return { member: 'number', message: `question ${q.id} takes a whole number from ${scale.min} to ${scale.max}` };
    return undefined;
  }
  if (wants === 'options') {
    const picked = a.options;
    if (!picked?.length) return { member: 'options', message: `question ${q.id} is answered with the options picked` };
    if (q.type !== 'multiple' && picked.length !== 1) return { member: 'options', message: `question ${q.id} takes one option` };
    if (new Set(picked).size !== picked.length) return { member: 'options', message: `question ${q.id}: an option is picked twice` };
    const unknown = picked.find((p) => !q.options!.some((o) => o.id === p));
    if (unknown !== undefined) return { member: 'options', message: `question ${q.id} has no option ${unknown}` };
    if (a.other !== undefined) {
      if (!picked.includes(otherOption)) return { member: 'other', message: `question ${q.id}: words go with the option ${otherOption}` };
      const problem = textProblem(a.other);
      if (problem) return { member: 'other', message: `question ${q.id}: ${problem}` };
      if (runes(a.other) > MAX_OTHER_RUNES)
        return { member: 'other', message: `question ${q.id}: the words beside ${otherOption} are at most ${MAX_OTHER_RUNES} characters` };
    }
    return undefined;
  }
  const limit = q.type === 'long_text' ? MAX_LONG_ANSWER_RUNES : MAX_SHORT_ANSWER_RUNES;
  if (typeof a.text !== 'string' || !a.text.trim()) return { member: 'text', message: `question ${q.id} is answered with words` };
  const problem = textProblem(a.text);
  if (problem) return { member: 'text', message: `question ${q.id}: ${problem}` };
  if (runes(a.text) > limit) return { member: 'text', message: `question ${q.id} takes at most ${limit} characters` };
  return undefined;
}

/**
 * The answers kept after these: each new one held to its question (a later answer to a question
 * replaces the earlier), every new one on the path the answers take (those kept before that the
 * path no longer passes are dropped), or every problem, each naming the answer and its question.
 */
export function takeAnswers(
  s: Survey,
  kept: readonly KeptAnswer[],
  sent: readonly SurveyAnswer[],
  opts: { submit: boolean },
): { answers: KeptAnswer[]; walk: Walk } | { errors: FieldError[] } {
  const questions = questionsOf(s);
  const errors: FieldError[] = [];
  const merged = new Map<string, KeptAnswer>(opts.submit ? [] : kept.map((a) => [a.question, a]));
  const sentAt = new Map<string, number>();
  sent.forEach((a, i) => {
    const q = questions.get(a.question);
    if (!q) return void errors.push({ field: `answers.${i}.question`, message: `names no question of this survey: ${a.question}` });
    const problem = answerProblem(q, a);
    if (problem) return void errors.push({ field: `answers.${i}.${problem.member}`, message: problem.message });
    merged.set(q.id, { ...a, title: q.title });
    sentAt.set(q.id, i);
  });
  if (errors.length) return { errors };
  const path = walk(s, merged);
  const on = new Set(path.steps.flatMap((id) => (s.steps.find((step) => step.id === id)!.questions ?? []).map((q) => q.id)));
  for (const [id, i] of sentAt)
    if (!on.has(id)) errors.push({ field: `answers.${i}.question`, message: `question ${id} is off the path the answers take` });
  if (opts.submit && !errors.length && !path.complete)
    errors.push({ field: 'answers', message: `question ${path.missing} is required on the path the answers take` });
  if (errors.length) return { errors };
  return { answers: [...merged.values()].filter((a) => on.has(a.question)), walk: path };
}
