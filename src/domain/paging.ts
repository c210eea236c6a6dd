import { invalidField } from './errors.js';

// Staff lists are read in keyset pages: each page starts after the last row of the one before,
// never at an offset, so rows written meanwhile neither repeat nor go missing. A row's cursor
// carries its sort key; clients treat it as opaque.

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

export interface Page<T> {
  items: T[];
  /** Each item's cursor: the next page after it starts just past it. */
  cursors: string[];
  /** The last item's cursor when another page follows; null on the last page. */
  nextCursor: string | null;
}

type KeyPart = 'text' | 'time' | 'int';
const fits: Record<KeyPart, (v: unknown) => boolean> = {
  text: (v) => typeof v === 'string',
  time: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
  int: (v) => Number.isSafeInteger(v),
};

/** The refusals of a page size and of a cursor, naming the argument. */
export const pageSizeRefusal = (field = 'first') => invalidField(field, `must be 1 to ${MAX_PAGE}`);
export const cursorRefusal = (field: string) => invalidField(field, 'must be a cursor this list gave');

/** How many rows a page has, or a refusal naming the argument. */
export function pageSize(first: number | null | undefined, field = 'first'): number {
  const size = first ?? DEFAULT_PAGE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) throw pageSizeRefusal(field);
  return size;
}

export const encodeCursor = (key: (string | number)[]) => Buffer.from(JSON.stringify(key)).toString('base64url');

/** The sort key a cursor carries, checked part by part, or a refusal naming the argument. */
export function decodeCursor(cursor: string, field: string, parts: KeyPart[]): (string | number)[] {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length !== parts.length || !parts.every((p, i) => fits[p](key[i]))) {
    throw cursorRefusal(field);
  }
  return key;
}

/** A page from rows read one beyond its size: the extra row only says another page follows. */
export function pageOf<T>(rows: T[], size: number, keyOf: (row: T) => (string | number)[]): Page<T> {
  const items = rows.slice(0, size);
  const cursors = items.map((row) => encodeCursor(keyOf(row)));
  return { items, cursors, nextCursor: rows.length > size ? cursors[cursors.length - 1]! : null };
}
