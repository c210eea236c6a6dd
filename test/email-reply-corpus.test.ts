import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replyOf } from '../src/domain/email-in/reply-text.js';

// The quoted-text figure on a public set of real-world replies in several languages, each with the
// reply expected once the quoted earlier email, forwarded headers and signatures are taken out
// (emails/NAME.txt and trimmed/NAME.txt). The set lives beside the project, at
// ../shared/corpora/email-replies/ from the repository root (EMAIL_REPLY_CORPUS names another
// folder, for a checkout that has it elsewhere). Where it is absent the test says so and is skipped.
//
// Comparison: both texts with CRLF read as LF, trailing whitespace removed from every line, and
// blank lines removed at the start and the end; what is left must be equal, character for character.
//
// Asserted: at least 95% of the set kept exactly as expected; and on EVERY email, each non-blank
// line of the expected reply is in ours (no line the person wrote is dropped) and ours is
// non-empty when the expected one is.

const root = fileURLToPath(new URL('..', import.meta.url));
const corpus = process.env.EMAIL_REPLY_CORPUS ?? path.resolve(root, '../shared/corpora/email-replies');
const present = existsSync(path.join(corpus, 'emails')) && existsSync(path.join(corpus, 'trimmed'));
const REQUIRED_SHARE = 0.95;

if (!present)
  console.warn(
    `\n*** email-reply corpus NOT FOUND at ${corpus}: the quoted-text figure is NOT measured and its test is SKIPPED. ` +
      `Put the set at ../shared/corpora/email-replies/ beside the repository (or name it in EMAIL_REPLY_CORPUS). ***\n`,
  );

/** LF line endings, no trailing whitespace on any line, no blank lines at either end. */
function normalized(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd());
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start] === '') start++;
  while (end > start && lines[end - 1] === '') end--;
  return lines.slice(start, end).join('\n');
}

describe.skipIf(!present)('the email-reply corpus', () => {
  const names = present
    ? readdirSync(path.join(corpus, 'emails'))
        .filter((name) => name.endsWith('.txt'))
        .sort()
    : [];
  const cases = names.map((name) => ({
    name,
    email: readFileSync(path.join(corpus, 'emails', name), 'utf8'),
    expected: normalized(readFileSync(path.join(corpus, 'trimmed', name), 'utf8')),
  }));

  it('keeps at least 95% of the replies exactly as expected, and prints the figure', () => {
    expect(cases.length).toBeGreaterThan(0);
    const misses: string[] = [];
    for (const { name, email, expected } of cases) if (normalized(replyOf(email).reply) !== expected) misses.push(name);
    const exact = cases.length - misses.length;
    console.log(
      `email-reply corpus: ${exact} of ${cases.length} replies kept exactly as expected (${((100 * exact) / cases.length).toFixed(1)}%)` +
        (misses.length ? `; differing: ${misses.join(', ')}` : ''),
    );
    expect(exact / cases.length).toBeGreaterThanOrEqual(REQUIRED_SHARE);
  });

  it('on every email, drops no line of the expected reply and is never empty when it is not', () => {
    for (const { name, email, expected } of cases) {
      const ours = normalized(replyOf(email).reply);
      if (expected !== '') expect(ours, name).not.toBe('');
      const kept = new Set(ours.split('\n'));
      const dropped = expected.split('\n').filter((line) => line.trim() !== '' && !kept.has(line));
      expect(dropped, name).toEqual([]);
    }
  });
});
