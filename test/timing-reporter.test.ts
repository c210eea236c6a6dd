import { describe, expect, it } from 'vitest';
import { budgetSeconds, DEFAULT_BUDGET_SECONDS, failureLines, timingReport, type FileTime } from './support/timing-reporter.js';

// The suite's budget (no server): the report lists files slowest first, and a run that passed
// but took longer than its budget is failed with one line saying so.

const file = (name: string, importMs: number, testsMs: number): FileTime => ({
  file: name,
  importMs,
  testsMs,
  totalMs: importMs + testsMs,
});
const files = [file('test/a.test.ts', 1_000, 2_000), file('test/b.test.ts', 2_000, 9_000), file('src/c.test.ts', 10, 40)];

describe('the timing report', () => {
  it('lists every file slowest first with its import and test times, then the total', () => {
    const { lines, over } = timingReport(files, 20_000, 360, true);
    const rows = lines.filter((l) => l.includes('.test.ts'));
    expect(rows.map((l) => l.trim().split(/\s+/)[0])).toEqual(['test/b.test.ts', 'test/a.test.ts', 'src/c.test.ts']);
    expect(rows[0]).toMatch(/test\/b\.test\.ts\s+11\.0 s\s+2\.0 s\s+9\.0 s/);
    expect(lines.at(-1)).toBe('Files summed: 14.1 s; whole run (global setup included): 20.0 s, budget 360 s (TEST_BUDGET_SECONDS)');
    expect(over).toBe(false);
  });

  it('fails a run that passed but took longer than its budget, saying so in one line', () => {
    const { lines, over } = timingReport(files, 360_001, 360, true);
    expect(over).toBe(true);
    expect(lines.at(-1)).toMatch(/^FAILED: the run took 360\.0 s, over its budget of 360 s/);
    expect(timingReport(files, 360_000, 360, true).over).toBe(false);
  });

  it('does not count a failed run against the budget, and has none at 0', () => {
    const failed = timingReport(files, 400_000, 360, false);
    expect(failed.over).toBe(false);
    expect(failed.lines.at(-1)).toMatch(/not counted against it/);
    const none = timingReport(files, 4_000_000, 0, true);
    expect(none.over).toBe(false);
    expect(none.lines.at(-1)).toMatch(/no budget \(TEST_BUDGET_SECONDS=0\)$/);
  });

  it('reads its budget from TEST_BUDGET_SECONDS, 660 s when unset', () => {
    expect(budgetSeconds({})).toBe(DEFAULT_BUDGET_SECONDS);
    expect(DEFAULT_BUDGET_SECONDS).toBe(660);
    expect(budgetSeconds({ TEST_BUDGET_SECONDS: '' })).toBe(660);
    expect(budgetSeconds({ TEST_BUDGET_SECONDS: '420' })).toBe(420);
    expect(budgetSeconds({ TEST_BUDGET_SECONDS: '0' })).toBe(0);
    expect(() => budgetSeconds({ TEST_BUDGET_SECONDS: 'six minutes' })).toThrow(/TEST_BUDGET_SECONDS/);
    expect(() => budgetSeconds({ TEST_BUDGET_SECONDS: '-1' })).toThrow(/TEST_BUDGET_SECONDS/);
  });

  it('ends a failed run with one line per failure, its first line of message, at most 20', () => {
    expect(failureLines([])).toEqual([]);
    const lines = failureLines([{ file: 'test/a.test.ts', test: 'a > b', message: '\nexpected 1 to be 2\n  at x' }]);
    expect(lines).toEqual(['Failed (1):', '  test/a.test.ts > a > b: expected 1 to be 2']);
    const many = failureLines(Array.from({ length: 23 }, (_, i) => ({ file: 'f', test: `t${i}`, message: 'm' })));
    expect(many).toHaveLength(22);
    expect(many.at(-1)).toBe('  … and 3 more');
  });
});
