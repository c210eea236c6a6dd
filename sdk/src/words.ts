/**
 * An enumerated word read as the SDK knows it: a word a newer service added (or anything that is not
 * one of `known`) reads as `fallback`, which is drawn as the default.
 */
export function word<const W extends string, const F extends string>(value: unknown, known: readonly W[], fallback: F): W | F {
  return typeof value === 'string' && (known as readonly string[]).includes(value) ? (value as W) : fallback;
}

/** An optional part: read by `read`, or left out (undefined) when it cannot be read, rather than losing the whole. */
export function optional<T>(value: unknown, read: (value: unknown) => T): T | undefined {
  if (value === undefined || value === null) return undefined;
  try {
    return read(value);
  } catch {
    return undefined;
  }
}

/** The items of a list that can be read; the rest left out. Not a list: none. */
export function readable<T>(value: unknown, read: (value: unknown) => T): T[] {
  if (!Array.isArray(value)) return [];
  const out: T[] = [];
  for (const item of value) {
    const got = optional(item, read);
    if (got !== undefined) out.push(got);
  }
  return out;
}
