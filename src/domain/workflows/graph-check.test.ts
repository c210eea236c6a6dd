import { describe, expect, it } from 'vitest';
import { graphProblems, type CheckedStep } from './graph-check.js';

const step = (key: string, next: string[], opts: { waits?: boolean; ends?: boolean } = {}): CheckedStep => ({
  key,
  next: next.map((to, i) => ({ field: `${key}.next.${i}`, to })),
  waits: opts.waits ?? false,
  ends: opts.ends ?? false,
});
const end = (key: string) => step(key, [], { ends: true });

describe('graphProblems', () => {
  it('takes a graph whose every step is reached and every path ends, with a loop that waits', () => {
    expect(
      graphProblems([
        step('wait_day', ['branch'], { waits: true }),
        step('branch', ['send', 'done']),
        step('send', ['wait_day']),
        end('done'),
      ]),
    ).toEqual([]);
  });

  it('names a way on to no step, and a dead end', () => {
    expect(graphProblems([step('a', ['nowhere']), step('b', [])])).toEqual([
      { field: 'a.next.0', message: 'step a leads to nowhere, which is no step of this workflow' },
      { field: 'steps.1', message: 'step b is a dead end: name the step after it, or end the run' },
    ]);
  });

  it('names a step no path reaches', () => {
    expect(graphProblems([step('a', ['z']), step('orphan', ['z']), end('z')])).toEqual([
      { field: 'steps.1', message: 'step orphan cannot be reached from the first step (a)' },
    ]);
  });

  it('names the steps of a loop no end can be reached from, and a loop without a wait', () => {
    const problems = graphProblems([step('a', ['b', 'z']), step('b', ['c']), step('c', ['b']), end('z')]);
    expect(problems.map((p) => p.message)).toEqual([
      'step b never ends: every way on from it loops without reaching an end step',
      'step c never ends: every way on from it loops without reaching an end step',
      'steps b, c loop without waiting: put a wait in the loop',
    ]);
    // A step leading to itself is a loop too.
    expect(graphProblems([step('a', ['a', 'z']), end('z')]).map((p) => p.message)).toEqual([
      'steps a loop without waiting: put a wait in the loop',
    ]);
  });

  it('allows a loop through a wait, and refuses only the part of a wider loop that does not wait', () => {
    expect(graphProblems([step('a', ['w']), step('w', ['a', 'z'], { waits: true }), end('z')])).toEqual([]);
    const mixed = graphProblems([step('a', ['b']), step('b', ['a', 'w']), step('w', ['a', 'z'], { waits: true }), end('z')]);
    expect(mixed).toEqual([{ field: 'steps.0', message: 'steps a, b loop without waiting: put a wait in the loop' }]);
  });

  it('checks a graph of 100,000 steps in a chain, without exhausting the stack', () => {
    const n = 100_000;
    const steps = Array.from({ length: n }, (_, i) => (i === n - 1 ? end(`s${i}`) : step(`s${i}`, [`s${i + 1}`])));
    expect(graphProblems(steps)).toEqual([]);
    steps[n - 1] = step(`s${n - 1}`, ['s0']);
    expect(graphProblems(steps)).toHaveLength(n + 1); // every step never ends, and one loop
  });
});
