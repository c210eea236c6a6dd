import type { TxCtx } from '../context.js';
import { rows } from '../../db/sql.js';
import { servedLanguages } from './served.js';
import type { HelpCtx, HelpReader } from './reader.js';
import { exec, sql } from '../../db/sql.js';

// The words of what is published, kept per app-mode and language (help_word), so that a search
// word no article has can be corrected to the published word most like it (pg_trgm similarity):
// "pasword" becomes "password", wherever in an article the word is.

/** Words are letters and digits, lower case, as a search reads them; shorter than three letters are not corrected. */
const WORD = /[\p{L}\p{N}]+/gu;
const MIN = 3;
const MAX = 40;
/** pg_trgm similarity a correction needs (its own default for `%`). */
export const SIMILARITY = 0.3;

export function wordsOfText(...texts: string[]): string[] {
  const words = new Set<string>();
  for (const text of texts)
    for (const w of text.normalize('NFKC').toLowerCase().match(WORD) ?? []) if (w.length >= MIN && w.length <= MAX) words.add(w);
  return [...words];
}

/** Adds a published version's words (in the publishing transaction). */
export async function keepWords(tx: TxCtx, appModeId: string, language: string, words: string[]): Promise<void> {
  if (!words.length) return;
  await exec(
    tx,
    sql`
    INSERT INTO help_word (app_mode_id, language, word) SELECT ${appModeId}, ${language}, w FROM unnest(${words}::text[]) w
    ON CONFLICT DO NOTHING`,
  );
}

/**
 * Each search word as a published word of the reader's languages: itself when some article has
 * it (looked up by key; the trigram index is asked only for the others), else the most alike (at
 * least SIMILARITY), else left out. In the order given, without repeats.
 */
export async function correctedWords(ctx: HelpCtx, reader: HelpReader, words: string[]): Promise<string[]> {
  const asked = words.filter((w) => w.length >= MIN && w.length <= MAX);
  if (!asked.length) return [];
  const mine = sql`w.app_mode_id = ${reader.appModeId} AND w.language = ANY(${servedLanguages(reader)}::text[])`;
  const found = await rows<{ found: string | null }>(
    ctx,
    sql`
      SELECT coalesce(
        (SELECT w.word FROM help_word w WHERE ${mine} AND w.word = q.word LIMIT 1),
        (SELECT w.word FROM help_word w WHERE ${mine} AND w.word % q.word AND similarity(w.word, q.word) >= ${SIMILARITY}
         ORDER BY similarity(w.word, q.word) DESC, w.word LIMIT 1)) AS found
      FROM unnest(${asked}::text[]) WITH ORDINALITY AS q(word, i)
      ORDER BY q.i`,
  );
  return [...new Set(found.flatMap((r) => (r.found ? [r.found] : [])))];
}
