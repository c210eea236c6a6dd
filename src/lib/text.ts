// Text PostgreSQL keeps exactly as sent: no NUL character, and well-formed Unicode (a lone
// surrogate would be refused by the database, or turned into U+FFFD on the way, making two ids one).

/** Why a piece of text cannot be taken as sent, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (!text.isWellFormed()) return 'must be well-formed Unicode text (a lone surrogate such as \\ud800 is not)';
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes read as UTF-8, or undefined when they are not UTF-8. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
