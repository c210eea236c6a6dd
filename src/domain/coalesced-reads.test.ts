import { describe, expect, it } from 'vitest';
import { CoalescedReads, type Timing } from './coalesced-reads.js';

// The shared, paced read behind a survey's live results: deterministic, on a clock the test moves.

function manualTiming() {
  let at = 0;
  const sleepers: { until: number; wake: () => void }[] = [];
  const timing: Timing = {
    now: () => at,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ until: at + ms, wake })),
  };
  /** Moves the time and lets everything due run. */
  const advance = async (ms: number) => {
    at += ms;
    for (const s of sleepers.filter((x) => x.until <= at)) {
      sleepers.splice(sleepers.indexOf(s), 1);
      s.wake();
    }
    await settle();
  };
  return { timing, advance };
}

/** Lets every promise chain waiting on what happened run. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** A read the test finishes: each call is one read, answered with its number when the test says. */
function reads() {
  const started: { n: number; finish: () => void }[] = [];
  const read = () =>
    new Promise<number>((resolve) => {
      const n = started.length + 1;
      started.push({ n, finish: () => resolve(n) });
    });
  return { started, read };
}

describe('CoalescedReads', () => {
  it('shares one read among callers who ask before it starts, and each caller gets a read started after it asked', async () => {
    const { timing, advance } = manualTiming();
    const shared = new CoalescedReads<string, number>(1000, timing);
    const { started, read } = reads();
    const first = shared.latest('s', read);
    await settle();
    expect(started).toHaveLength(1);
    // Asked while the first runs: neither joins it (it may have begun before what they must see); both wait for the next.
    const second = shared.latest('s', read);
    const third = shared.latest('s', read);
    expect(second).toBe(third);
    started[0]!.finish();
    expect(await first).toBe(1);
    await settle();
    // The next starts no sooner than a second after the first started.
    expect(started).toHaveLength(1);
    await advance(999);
    expect(started).toHaveLength(1);
    await advance(1);
    expect(started).toHaveLength(2);
    started[1]!.finish();
    expect([await second, await third]).toEqual([2, 2]);
    expect(shared.started).toBe(2);
  });

  it('runs at most one read of a key at a time and keeps one waiting, however many ask during a flood', async () => {
    const { timing, advance } = manualTiming();
    const shared = new CoalescedReads<string, number>(1000, timing);
    const { started, read } = reads();
    const answers: Promise<number>[] = [];
    for (let tick = 0; tick < 10; tick++) {
      for (let i = 0; i < 100; i++) answers.push(shared.latest('s', read));
      await advance(500);
      for (const s of started) s.finish();
      await settle();
    }
    for (const s of started) s.finish();
    await advance(1000);
    for (const s of started) s.finish();
    await settle();
    // 1,000 callers over five seconds: a read a second at most, not one per caller.
    expect(started.length).toBeLessThanOrEqual(6);
    expect(new Set(await Promise.all(answers)).size).toBe(started.length);
  });

  it('leaves the database as long again after a slow read before the next, and keeps keys apart', async () => {
    const { timing, advance } = manualTiming();
    const shared = new CoalescedReads<string, number>(1000, timing);
    const { started, read } = reads();
    void shared.latest('s', read);
    await settle();
    const next = shared.latest('s', read);
    await advance(3000);
    started[0]!.finish();
    await settle();
    // The first took 3 s: the next waits 3 s after it ended.
    await advance(2999);
    expect(started).toHaveLength(1);
    // Another key is not held back by this one.
    void shared.latest('t', read);
    await settle();
    expect(started).toHaveLength(2);
    await advance(1);
    expect(started).toHaveLength(3);
    started[2]!.finish();
    expect(await next).toBe(3);
  });

  it('forgets a key once it is idle and its pace has passed', async () => {
    const { timing, advance } = manualTiming();
    const shared = new CoalescedReads<string, number>(1000, timing);
    const { started, read } = reads();
    const one = shared.latest('s', read);
    await settle();
    started[0]!.finish();
    await one;
    expect(shared.size).toBe(1);
    await advance(1000);
    expect(shared.size).toBe(0);
  });

  it('hands a failed read to its callers, and the next read still comes', async () => {
    const { timing, advance } = manualTiming();
    const shared = new CoalescedReads<string, number>(1000, timing);
    const failing = shared.latest('s', () => Promise.reject(new Error('cut')));
    await expect(failing).rejects.toThrow('cut');
    const after = shared.latest('s', () => Promise.resolve(7));
    await advance(1000);
    expect(await after).toBe(7);
  });
});
