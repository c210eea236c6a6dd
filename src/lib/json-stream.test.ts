import { describe, expect, it } from 'vitest';
import { jsonChunks, PagedArray } from './json-stream.js';

// The export's writer: the same text JSON.stringify would write, its PagedArrays read a page at a
// time only as the text reaches them, in chunks of about the size asked.

const text = async (value: unknown, chunkChars?: number) => {
  let out = '';
  for await (const chunk of jsonChunks(value, chunkChars)) out += chunk;
  return out;
};

const pagesOf = <T>(pages: T[][], read: number[] = []) =>
  new PagedArray<T>(async function* () {
    for (const [i, page] of pages.entries()) {
      read.push(i);
      yield page;
    }
  });

describe('jsonChunks', () => {
  it('writes what JSON.stringify writes, PagedArrays as arrays', async () => {
    const plain = {
      a: 1,
      b: 'two "quoted" \u2028 \n',
      c: [null, true, { d: undefined, e: 'x' }, undefined],
      f: undefined,
      g: { h: [] as unknown[], i: {} },
      j: new Date(0),
    };
    expect(await text(plain)).toBe(JSON.stringify(plain));
    const paged = {
      list: pagesOf([[1, 2], [], [3]]),
      nested: [{ parts: pagesOf([[{ k: 'v' }], [{ k: 'w', skip: undefined }]]) }],
      empty: pagesOf([]),
    };
    expect(JSON.parse(await text(paged))).toEqual({ list: [1, 2, 3], nested: [{ parts: [{ k: 'v' }, { k: 'w' }] }], empty: [] });
  });

  it('reads a page only when the text reaches it, and writes in chunks of about the size asked', async () => {
    const read: number[] = [];
    const words = 'x'.repeat(1000);
    const chunks = jsonChunks({ parts: pagesOf([Array(10).fill(words), Array(10).fill(words)], read) }, 4000);
    const first = await chunks.next();
    expect(first.value.length).toBeGreaterThanOrEqual(4000);
    expect(first.value.length).toBeLessThan(4000 + 1010);
    expect(read).toEqual([0]);
    const rest = [];
    for await (const chunk of chunks) rest.push(chunk);
    expect(read).toEqual([0, 1]);
    expect(JSON.parse(first.value + rest.join('')).parts).toHaveLength(20);
  });

  it('refuses to be stringified whole', () => {
    expect(() => JSON.stringify({ list: pagesOf([[1]]) })).toThrow(/page by page/);
  });
});
