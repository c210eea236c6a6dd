import { setImmediate as nextTurn } from 'node:timers/promises';

// JSON written piece by piece, for an answer that may be too big to build in memory (a person's
// export): its long lists are PagedArrays, read a page at a time while the text is written, so
// what is held at once is one page and one chunk, and the event loop is free between pages.

/** A JSON array read in pages while it is written (jsonChunks): never held whole. */
export class PagedArray<T> {
  constructor(readonly pages: () => AsyncIterable<readonly T[]>) {}

  /** A PagedArray is only ever written by jsonChunks; JSON.stringify would need it whole. */
  toJSON(): never {
    throw new Error('A PagedArray is written by jsonChunks, page by page');
  }
}

/** The value as JSON text (as JSON.stringify writes it), in chunks of about `chunkChars`; PagedArrays read as they are written. */
export async function* jsonChunks(value: unknown, chunkChars = 64 * 1024): AsyncGenerator<string> {
  let chunk = '';
  for await (const piece of pieces(value)) {
    chunk += piece;
    if (chunk.length >= chunkChars) {
      yield chunk;
      chunk = '';
      // A turn of the event loop between chunks: however fast the connection takes them, one
      // answer never holds the loop for more than a chunk (or a page read) at a time.
      await nextTurn();
    }
  }
  if (chunk) yield chunk;
}

/** Whether a PagedArray is anywhere inside the value (a plain value is written by JSON.stringify at once). */
function hasPaged(value: unknown): boolean {
  if (value instanceof PagedArray) return true;
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  return (Array.isArray(value) ? value : Object.values(value)).some(hasPaged);
}

/**
 * The JSON text of a value in pieces: what holds no PagedArray whole (JSON.stringify), what holds
 * one by its members, a PagedArray item by item as its pages are read.
 */
async function* pieces(value: unknown): AsyncGenerator<string> {
  if (!hasPaged(value)) {
    yield JSON.stringify(value) ?? 'null';
  } else if (value instanceof PagedArray) {
    yield '[';
    let first = true;
    for await (const page of value.pages())
      for (const item of page) {
        if (!first) yield ',';
        first = false;
        yield* pieces(item ?? null);
      }
    yield ']';
  } else if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i) yield ',';
      yield* pieces(value[i]);
    }
    yield ']';
  } else {
    yield '{';
    let first = true;
    for (const [key, member] of Object.entries(value as object)) {
      // As JSON.stringify: a member with no JSON form is left out.
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* pieces(member);
    }
    yield '}';
  }
}
