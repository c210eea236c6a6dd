import type { ContentBlock } from '../help/blocks.js';

// The survey model: the content of a `survey` in-app message (src/domain/inapp/content.ts), as
// staff write it and as the app reads it. Steps of questions and one thank-you step; after a step
// the survey goes where the first branch whose answer matches says, else to the step's `next`, else
// to the step that follows it in the list. Pure: read and checked in validate.ts, answers held and the path walked in answers.ts.

/** The option id of "Other": the person picks it and may add their own words (`other`). */
export const otherOption = 'other';

export const MAX_STEPS = 30;
export const MAX_STEP_QUESTIONS = 5;
export const MAX_QUESTIONS = 50;
export const MAX_OPTIONS = 20;
export const MAX_DROPDOWN_OPTIONS = 100;
export const MAX_BRANCHES = 20;
export const NPS_MIN = 0;
export const NPS_MAX = 10;

/** MaxShortAnswerRunes: the words of a short text answer, in code points. */
export const MAX_SHORT_ANSWER_RUNES = 300;
/** MaxLongAnswerRunes: the words of a long text answer, in code points. */
export const MAX_LONG_ANSWER_RUNES = 5000;
/** MaxOtherRunes: the person's own words beside "Other", in code points. */
export const MAX_OTHER_RUNES = 300;

export const QUESTION_TYPES = ['rating', 'nps', 'single', 'multiple', 'dropdown', 'short_text', 'long_text'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export interface SurveyOption {
  id: string;
  label: string;
}

export interface SurveyQuestion {
  id: string;
  type: QuestionType;
  title: string;
  description?: string;
  /** Answered before the person may go on (default true). */
  required?: boolean;
  /** Rating: drawn as numbers, stars or emoji (an enumerated word), from `min` to `max`. */
  display?: string;
  min?: number;
  max?: number;
  /** Rating: words under the low and high ends. */
  lowLabel?: string;
  highLabel?: string;
  /** Choices and dropdowns; an option whose id is `otherOption` takes the person's own words. */
  options?: SurveyOption[];
  /** Short text: a placeholder. */
  placeholder?: string;
  /** A contact attribute the answer is written to on submit, of the answer's type. */
  attribute?: string;
}

/** After its step: go `to` when the answer to `question` lies in `range` (rating, NPS) or is among `values` (choices). */
export interface SurveyBranch {
  question: string;
  range?: { min: number; max: number };
  values?: string[];
  to: string;
}

export interface SurveyStep {
  id: string;
  /** The thank-you step: where every path ends; it holds no questions. */
  thankYou?: boolean;
  blocks?: ContentBlock[];
  questions?: SurveyQuestion[];
  branches?: SurveyBranch[];
  /** Where to go when no branch matches; left out: the step that follows in the list. */
  next?: string;
}

export interface Survey {
  steps: SurveyStep[];
  /** Words on the control that goes on, and that submits. */
  nextLabel?: string;
  submitLabel?: string;
}

/** The attribute type each question's answer is written as. */
export const ATTRIBUTE_TYPE: Record<QuestionType, 'number' | 'string' | 'list' | undefined> = {
  rating: 'number',
  nps: 'number',
  single: 'string',
  dropdown: 'string',
  multiple: 'list',
  short_text: 'string',
  // A long answer does not fit an attribute's 1,000 characters.
  long_text: undefined,
};

/** The scale of a rating or NPS question. */
export const scaleOf = (q: SurveyQuestion): { min: number; max: number } | undefined =>
  q.type === 'nps' ? { min: NPS_MIN, max: NPS_MAX } : q.type === 'rating' ? { min: q.min ?? 1, max: q.max ?? 5 } : undefined;

/** Code points: what the answer limits count (an emoji is one or more, a combining mark one). */
export const runes = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};
