import { describe, expect, it } from 'vitest';
import { jsonChunks, PagedArray } from '../../lib/json-stream.js';
import { concatListed } from './registry.js';

const paged = <T>(...pages: T[][]) =>
  new PagedArray<T>(async function* () {
    for (const page of pages) yield page;
  });
const written = async (value: unknown) => {
  let text = '';
  for await (const chunk of jsonChunks(value)) text += chunk;
  return JSON.parse(text);
};

describe('a member two areas fill', () => {
  it('holds the first area’s entries, then the second’s, whether they are arrays or read page by page', async () => {
    expect(concatListed([1, 2], [3])).toEqual([1, 2, 3]);
    expect(await written(concatListed(paged([1, 2], [3]), [4]))).toEqual([1, 2, 3, 4]);
    expect(await written(concatListed([], paged([1], [2, 3])))).toEqual([1, 2, 3]);
    expect(await written(concatListed(paged<number>(), paged<number>()))).toEqual([]);
  });
});
