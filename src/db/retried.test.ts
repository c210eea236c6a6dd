import { describe, expect, it } from 'vitest';
import { DB_TRIES, retriedInParts } from './retried.js';

const cut = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

/** Items written in parts by retriedInParts, a part failing when `fails(size, try)` says so; answers what was written and the sizes tried. */
async function writeAll(items: number, most: number, fails: (size: number, attempt: number) => boolean) {
  const written: number[] = [];
  const sizes: number[] = [];
  let attempt = 0;
  let error: unknown;
  try {
    await retriedInParts(most, async (n) => {
      sizes.push(n);
      const part = Array.from({ length: Math.min(n, items - written.length) }, (_, i) => written.length + i);
      if (fails(part.length, attempt++)) throw cut();
      written.push(...part);
      return written.length < items;
    });
  } catch (err) {
    error = err;
  }
  return { written, sizes, error };
}

describe('retriedInParts', () => {
  it('writes everything in parts of at most `most`', async () => {
    const { written, sizes, error } = await writeAll(250, 100, () => false);
    expect(error).toBeUndefined();
    expect(written).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(sizes).toEqual([100, 100, 100]);
  });

  it('halves a part that is cut, so a write too long to fit between cuts gets through, then grows back', async () => {
    // Any part of more than 30 is cut every time (it takes longer than the time between cuts).
    const { written, sizes, error } = await writeAll(200, 100, (size) => size > 30);
    expect(error).toBeUndefined();
    expect(written).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(sizes.slice(0, 4)).toEqual([100, 50, 25, 50]);
    expect(Math.max(...sizes)).toBe(100);
  }, 20_000);

  it('gives up after DB_TRIES failures in a row, what went through before staying written', async () => {
    const { written, error } = await writeAll(200, 50, (_, attempt) => attempt >= 2);
    expect((error as Error).message).toMatch(/terminating connection/);
    expect(written).toEqual(Array.from({ length: 100 }, (_, i) => i));
  }, 20_000);

  it('a failure between parts that went through does not count against the next', async () => {
    // Every other try is cut: never DB_TRIES failures in a row.
    const { written, error } = await writeAll(40, 10, (_, attempt) => attempt % 2 === 0);
    expect(error).toBeUndefined();
    expect(written).toHaveLength(40);
    expect(DB_TRIES).toBeGreaterThan(2);
  }, 20_000);
});
