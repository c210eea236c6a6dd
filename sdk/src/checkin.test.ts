import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CheckinSchedule } from './checkin.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function schedule(answers: (number | undefined)[]) {
  const at: number[] = [];
  const s = new CheckinSchedule(async () => {
    at.push(Date.now());
    return answers.length ? answers.shift() : 20;
  });
  return { s, at };
}

describe('CheckinSchedule', () => {
  it('checks in at once, then never sooner than the answer allows, once for many asks', async () => {
    const start = Date.now();
    const { s, at } = schedule([20, 20]);
    s.request();
    await s.settled();
    s.request();
    s.request();
    s.request();
    await vi.advanceTimersByTimeAsync(19_999);
    expect(at.map((t) => t - start)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await s.settled();
    expect(at.map((t) => t - start)).toEqual([0, 20_000]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(at).toHaveLength(2);
  });

  it('asked while one is under way, checks in once more when allowed', async () => {
    const start = Date.now();
    const { s, at } = schedule([5]);
    s.request();
    s.request();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(at.map((t) => t - start)).toEqual([0, 5_000]);
  });

  it('tries again after a growing pause when it could not check in, and stops when told', async () => {
    const { s, at } = schedule([undefined, undefined]);
    s.request();
    await vi.advanceTimersByTimeAsync(1_250);
    expect(at.length).toBeGreaterThanOrEqual(2);
    s.stop();
    const before = at.length;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(at.length).toBe(before);
  });
});
