import type { Survey, SurveyQuestion } from './model.js';

// A survey's results, per variant, folded one response at a time (so any number of responses is
// read a page at a time, in bounded memory): how many were shown (the message's `seen` receipts),
// started (answered at least once) and completed (submitted); per question, its views on the paths
// actually taken, its exits (people who stopped there), drop-off as exits over the question's own
// views (never over the previous row: with branching the previous row is another path, the mistake
// a peer made), its answers' distribution, and for NPS the score. Pure.

/** A response as kept: its answers, the step ids of the path they take, whether it was submitted. */
export interface ResponseRow {
  variant: string;
  answers: { question: string; number?: number; options?: string[]; text?: string }[];
  path: string[];
  submitted: boolean;
}

export interface Nps {
  answered: number;
  promoters: number;
  passives: number;
  detractors: number;
  /** The share of 9–10 minus the share of 0–6, in points from -100 to 100 (one decimal). */
  score: number;
}

export interface QuestionResults {
  question: string;
  type: string;
  title: string;
  /** People whose path reached the question's step (the first step: everyone shown). */
  views: number;
  /** People who stopped at it: shown it, never answered it, never submitted. */
  exits: number;
  /** exits / views; null with no views. */
  dropOff: number | null;
  answered: number;
  /** Numbers and options: how many gave each (every value of a scale and every option listed, 0 included). */
  distribution: { value: string; count: number }[];
  nps: Nps | null;
}

export interface VariantResults {
  variant: string;
  shown: number;
  started: number;
  completed: number;
  questions: QuestionResults[];
}

/** NPS from the counts of each score 0 to 10. */
export function npsOf(counts: readonly number[]): Nps {
  const answered = counts.reduce((a, b) => a + b, 0);
  const sum = (from: number, to: number) => counts.slice(from, to + 1).reduce((a, b) => a + b, 0);
  const promoters = sum(9, 10);
  const passives = sum(7, 8);
  const detractors = sum(0, 6);
  const score = answered ? Math.round(((promoters - detractors) / answered) * 1000) / 10 : 0;
  return { answered, promoters, passives, detractors, score };
}

const valuesOf = (q: SurveyQuestion): string[] => {
  if (q.type === 'nps') return Array.from({ length: 11 }, (_, i) => String(i));
  if (q.type === 'rating') {
    const min = q.min ?? 1;
    return Array.from({ length: (q.max ?? 5) - min + 1 }, (_, i) => String(min + i));
  }
  return (q.options ?? []).map((o) => o.id);
};

interface Tally {
  started: number;
  completed: number;
  responses: number;
  views: Map<string, number>;
  exits: Map<string, number>;
  answered: Map<string, number>;
  counts: Map<string, Map<string, number>>;
}

/** Folds responses into results; `shown` by variant from the message's statistics. */
export class SurveyResults {
  private readonly tallies = new Map<string, Tally>();
  private readonly questions: { q: SurveyQuestion; step: string }[];
  private readonly first: string;

  constructor(private readonly survey: Survey) {
    this.questions = survey.steps.flatMap((s) => (s.questions ?? []).map((q) => ({ q, step: s.id })));
    this.first = survey.steps[0]!.id;
  }

  private tally(variant: string): Tally {
    let t = this.tallies.get(variant);
    if (!t)
      this.tallies.set(
        variant,
        (t = { started: 0, completed: 0, responses: 0, views: new Map(), exits: new Map(), answered: new Map(), counts: new Map() }),
      );
    return t;
  }

  add(row: ResponseRow): void {
    const t = this.tally(row.variant);
    t.responses++;
    const given = new Map(row.answers.map((a) => [a.question, a]));
    if (given.size) t.started++;
    if (row.submitted) t.completed++;
    const onPath = new Set(row.path.length ? row.path : [this.first]);
    const last = row.path.at(-1) ?? this.first;
    for (const { q, step } of this.questions) {
      if (!onPath.has(step)) continue;
      t.views.set(q.id, (t.views.get(q.id) ?? 0) + 1);
      const a = given.get(q.id);
      if (!a) {
        // Stopped here: the step they left at, this question unanswered, never submitted.
        if (!row.submitted && step === last) t.exits.set(q.id, (t.exits.get(q.id) ?? 0) + 1);
        continue;
      }
      t.answered.set(q.id, (t.answered.get(q.id) ?? 0) + 1);
      const values = a.number !== undefined ? [String(a.number)] : (a.options ?? []);
      let counts = t.counts.get(q.id);
      if (!counts) t.counts.set(q.id, (counts = new Map()));
      for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
  }

  /** The results by variant: those shown (by the statistics) and those with responses. */
  results(shown: ReadonlyMap<string, number>): VariantResults[] {
    const variants = [...new Set([...shown.keys(), ...this.tallies.keys()])].sort();
    return variants.map((variant) => {
      const t = this.tally(variant);
      // People shown the survey who never answered saw its first step and left there.
      const seen = Math.max(shown.get(variant) ?? 0, t.responses);
      const silent = seen - t.responses;
      return {
        variant,
        shown: seen,
        started: t.started,
        completed: t.completed,
        questions: this.questions.map(({ q, step }, i) => {
          const firstOfFirst = step === this.first && this.questions.findIndex((x) => x.step === this.first) === i;
          const views = (t.views.get(q.id) ?? 0) + (step === this.first ? silent : 0);
          const exits = (t.exits.get(q.id) ?? 0) + (firstOfFirst ? silent : 0);
          const counts = t.counts.get(q.id) ?? new Map<string, number>();
          const values = valuesOf(q);
          const listed = [...values, ...[...counts.keys()].filter((v) => !values.includes(v))];
          return {
            question: q.id,
            type: q.type,
            title: q.title,
            views,
            exits,
            dropOff: views ? exits / views : null,
            answered: t.answered.get(q.id) ?? 0,
            distribution:
              q.type === 'short_text' || q.type === 'long_text' ? [] : listed.map((value) => ({ value, count: counts.get(value) ?? 0 })),
            nps: q.type === 'nps' ? npsOf(Array.from({ length: 11 }, (_, n) => counts.get(String(n)) ?? 0)) : null,
          };
        }),
      };
    });
  }
}
