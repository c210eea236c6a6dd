// The path a survey's answers take, from the first step: on past each step whose required questions
// are answered, to where the first branch whose answer matches says, else the step's `next`, else
// the step that follows in the list. Imports nothing, so the web messenger walks it with the same
// code the guest routes check answers with (src/domain/surveys/answers.ts).

export interface PathStep {
  id: string;
  thankYou?: boolean;
  questions?: { id: string; required?: boolean }[];
  branches?: { question: string; range?: { min: number; max: number }; values?: string[]; to: string }[];
  next?: string;
}

/** What of an answer a branch reads. */
export interface PathAnswer {
  number?: number;
  options?: string[];
}

export interface Walk {
  /** Steps visited, in order (the thank-you step last when reached). */
  steps: string[];
  /** Reached the thank-you step with every required question on the way answered. */
  complete: boolean;
  /** The first required question on the path left unanswered. */
  missing?: string;
}

/** Whether an answer takes a branch. */
function matches(b: NonNullable<PathStep['branches']>[number], a: PathAnswer | undefined): boolean {
  if (!a) return false;
  if (b.range) return a.number !== undefined && a.number >= b.range.min && a.number <= b.range.max;
  return (a.options ?? []).some((o) => (b.values ?? []).includes(o));
}

/** The path the answers take. */
export function walk(s: { steps: readonly PathStep[] }, answers: ReadonlyMap<string, PathAnswer>): Walk {
  const index = new Map(s.steps.map((step, i) => [step.id, i]));
  const steps: string[] = [];
  // The model has no cycle (validate.ts); the bound is for a model read from elsewhere.
  for (let i: number | undefined = 0; i !== undefined && i < s.steps.length && steps.length <= s.steps.length;) {
    const step: PathStep = s.steps[i]!;
    steps.push(step.id);
    if (step.thankYou) return { steps, complete: true };
    const missing = (step.questions ?? []).find((q) => q.required !== false && !answers.has(q.id));
    if (missing) return { steps, complete: false, missing: missing.id };
    const branch = (step.branches ?? []).find((b) => matches(b, answers.get(b.question)));
    const to = branch?.to ?? step.next;
    i = to !== undefined ? index.get(to) : i + 1;
  }
  return { steps, complete: false };
}
