import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventQueue, MAX_HELD, type BatchOutcome, type GuestEvent } from './events.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function queue(outcomes: BatchOutcome[] = []) {
  const batches: { names: string[]; keepalive: boolean }[] = [];
  let sent = 0;
  let n = 0;
  const q = new EventQueue({
    post: async (events: GuestEvent[], keepalive) => {
      batches.push({ names: events.map((e) => e.name), keepalive });
      return outcomes.shift() ?? 'sent';
    },
    sent: () => sent++,
    uuid: () => `id-${++n}`,
  });
  return { q, batches, sent: () => sent };
}

describe('EventQueue', () => {
  it('sends at most 50 a batch, oldest first, each with its own id, and checks in after each batch kept', async () => {
    const { q, batches, sent } = queue();
    const ids = Array.from({ length: 120 }, (_, i) => q.track(`e${i}`).id);
    expect(new Set(ids).size).toBe(120);
    await q.flush();
    expect(batches.map((b) => b.names.length)).toEqual([50, 50, 20]);
    expect(batches.flatMap((b) => b.names)).toEqual(Array.from({ length: 120 }, (_, i) => `e${i}`));
    expect(sent()).toBe(3);
    expect(q.waiting).toBe(0);
  });

  it('sends a batch a moment after its first event when it does not fill', async () => {
    const { q, batches } = queue();
    q.track('a');
    q.track('b');
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(batches).toEqual([{ names: ['a', 'b'], keepalive: false }]);
  });

  it('keeps a batch that could not be sent, in order, and tries again later', async () => {
    const { q, batches } = queue(['again']);
    q.track('a');
    await q.flush();
    q.track('b');
    expect(q.waiting).toBe(2);
    await vi.advanceTimersByTimeAsync(1500);
    expect(batches.map((b) => b.names)).toEqual([['a'], ['a', 'b']]);
    expect(q.waiting).toBe(0);
  });

  it('lets a batch the service refused whole go rather than sending it for ever', async () => {
    const { q, sent } = queue(['refused']);
    q.track('bad');
    await q.flush();
    expect(q.waiting).toBe(0);
    expect(sent()).toBe(0);
  });

  it('sends everything held with keepalive when the page is hidden', async () => {
    const { q, batches } = queue(['again']);
    q.track('first');
    await q.flush(); // offline: held
    for (let i = 0; i < 69; i++) q.track(`e${i}`);
    batches.length = 0;
    q.flushOnHide();
    await vi.advanceTimersByTimeAsync(0);
    expect(batches.map((b) => [b.names.length, b.keepalive])).toEqual([
      [50, true],
      [20, true],
    ]);
    expect(batches[0]!.names[0]).toBe('first');
    expect(q.waiting).toBe(0);
  });

  it('holds at most MAX_HELD, letting the oldest go', () => {
    const q = new EventQueue({ post: () => new Promise<BatchOutcome>(() => {}) });
    for (let i = 0; i < MAX_HELD + 7; i++) q.track('e');
    expect(q.waiting).toBe(MAX_HELD);
    expect(q.dropped).toBe(7);
  });
});
