import type { Span } from './blocks.js';
import { searchConfigOf } from './languages.js';
import { audiencesOf, type HelpCtx, type HelpReader } from './reader.js';
import { itemOf, servedStatement, withCollections, type ArticleItem, type ServedRow } from './served.js';
import { correctedWords } from './spelling.js';
import { SEARCH_TIMEOUT_MS, searchBusy } from './share.js';
import { isStatementTimeout } from '../../db/lost-connection.js';
import { rows, sql, type Sql } from '../../db/sql.js';

// GET …/articles: with no words, the articles most read in the reader's language first; with
// words, PostgreSQL full-text search over the served versions, in each language's own
// text-search configuration, title weighted above summary above body, the last word read as a
// prefix (the reader may still be typing it). When no article has every word, each word becomes
// the published word most like it (pg_trgm, spelling.ts) and those are searched, all of them, else
// any: a misspelt word still finds its article. Each match carries an excerpt of its body with the
// matched words marked, made from the body's passage (at most 1,000 characters) that has the most
// of them. A search reads a bounded part of each article however long it is: the words of its
// title, summary and first 100,000 characters (MAX_ARTICLE_TEXT), and one passage per match.

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
/** Words of a query read; the rest are ignored. */
export const MAX_WORDS = 10;
const MAX_WORD_CHARS = 60;
export { SEARCH_TIMEOUT_MS };

export type MatchedBy = 'most_read' | 'words' | 'similar_words';

export interface ArticleList {
  items: ArticleItem[];
  matchedBy: MatchedBy;
}

/** Weights of D (unused), C (body), B (summary) and A (title): a title match outranks any body. */
const WEIGHTS = '{0, 0.1, 0.3, 1.0}';
// Marks around matched words in ts_headline's answer: control characters the stored text never holds.
const START = '\u0001';
const STOP = '\u0002';
// One stretch of the body around the best match: two could be next to each other in the text, and
// a "…" between them would say words were left out where none were.
const HEADLINE = `StartSel=${START}, StopSel=${STOP}, MaxWords=30, MinWords=12, ShortWord=0, MaxFragments=1`;
/** Shown where an excerpt leaves words out. */
export const CUT = '…';

/** The words of a query: letters and digits, lower-cased, at most MAX_WORDS. */
export function wordsOf(q: string | undefined): string[] {
  return (
    q
      ?.normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .slice(0, MAX_WORDS)
    .map((w) => w.slice(0, MAX_WORD_CHARS));
}

/** What a full-text search asks (a to_tsquery text) and which words its excerpts mark. */
export interface SearchTerms {
  query: string;
  marks: string;
}

// Words are letters and digits only, so nothing in them is a tsquery operator.
const marks = (words: string[]) => words.map((w) => `${w}:*`).join(' | ');
/** Words as typed: every one, the last as a prefix (it may still be being typed). */
export const typed = (words: string[]): SearchTerms => ({
  query: words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & '),
  marks: marks(words),
});
/** Published words (corrections): whole words, joined by & (all) or | (any). */
const published = (words: string[], join: ' & ' | ' | '): SearchTerms => ({ query: words.join(join), marks: marks(words) });

export async function listArticles(
  ctx: HelpCtx,
  reader: HelpReader,
  input: { q?: string | undefined; limit?: number | undefined },
): Promise<ArticleList> {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const words = wordsOf(input.q);
  if (!words.length) return { items: (await mostRead(ctx, reader, limit)).map(itemOf), matchedBy: 'most_read' };
  // In the app-mode's share of searches (share.ts), each statement bounded.
  return ctx.svc.caches.helpSearches.run(reader.appModeId, () => bounded(ctx, (on) => searchWords(on, reader, words, limit)));
}

async function searchWords(ctx: HelpCtx, reader: HelpReader, words: string[], limit: number): Promise<ArticleList> {
  const found = await fullText(ctx, reader, typed(words), limit);
  if (found.length) return { items: withExcerpts(found), matchedBy: 'words' };
  // No article has every word: each word as the published word most like it, every one of them, else any.
  const corrected = await correctedWords(ctx, reader, words);
  if (!corrected.length) return { items: [], matchedBy: 'similar_words' };
  let similar = await fullText(ctx, reader, published(corrected, ' & '), limit);
  if (!similar.length && corrected.length > 1) similar = await fullText(ctx, reader, published(corrected, ' | '), limit);
  return { items: withExcerpts(similar), matchedBy: 'similar_words' };
}

/** Runs a search's statements on the search pool (share.ts), each stopped after SEARCH_TIMEOUT_MS: past it, or waiting as long for a connection, 503 with Retry-After. */
async function bounded<T>(ctx: HelpCtx, search: (on: HelpCtx) => Promise<T>): Promise<T> {
  try {
    return await search({ ...ctx, svc: { ...ctx.svc, pool: ctx.svc.caches.helpSearches.pool } });
  } catch (err) {
    if (isStatementTimeout(err))
      throw searchBusy('The search took too long and was stopped; nothing was done. Send it again after Retry-After.');
    if (err instanceof Error && err.message === 'timeout exceeded when trying to connect') throw searchBusy();
    throw err;
  }
}

/** Most views in the language served first, then the staff's order: sorted and cut in the database. */
function mostRead(ctx: HelpCtx, reader: HelpReader, limit: number): Promise<ServedRow[]> {
  const page = sql`
    SELECT s.*, coalesce(v.views, 0) AS views FROM (${servedStatement(reader)}) s
    LEFT JOIN help_article_stat v ON v.article_id = s.article_id AND v.language = s.language
    ORDER BY views DESC, s.position, s.slug
    LIMIT ${limit}`;
  return rows<ServedRow>(ctx, sql`${withCollections(reader, page)} ORDER BY views DESC, position, slug`);
}

/** A match: its rank, its excerpt, and whether the excerpt leaves out words before and after it. */
type Hit = ServedRow & { rank: number; headline: string; cut_start: boolean; cut_end: boolean };

/**
 * The served versions having every word, best first, with their excerpts: one statement
 * (crm_help_search, in the migrations). The reader's language is searched with its configuration;
 * articles not published in it, in the default language with that one's.
 */
async function fullText(ctx: HelpCtx, reader: HelpReader, terms: SearchTerms, limit: number): Promise<Hit[]> {
  return rows<Hit>(ctx, fullTextStatement(reader, terms, limit));
}

/** The statement of a full-text search (the benchmark also runs it alone, as its floor). */
export function fullTextStatement(reader: HelpReader, terms: SearchTerms, limit: number): Sql {
  const own = reader.language;
  const fallback = reader.app.defaultLanguage;
  const hits = sql`
    SELECT article_id, slug, collection_id, position, audience, language, title, summary, published_at AT TIME ZONE 'UTC' AS published_at, rank, headline,
      cut_start, cut_end
    FROM crm_help_search(${reader.appModeId}, ${own}, ${searchConfigOf(own)}, ${fallback}, ${searchConfigOf(fallback)},
      ${terms.query}, ${terms.marks}, ${audiencesOf(reader)}::text[], ${limit}::int, ${WEIGHTS}::float4[], ${HEADLINE})`;
  return sql`${withCollections(reader, hits)} ORDER BY rank DESC, position, slug`;
}

/** Items with their excerpts (ts_headline, in crm_help_search) as spans. */
const withExcerpts = (rows: Hit[]): ArticleItem[] =>
  rows.map((row) => ({ ...itemOf(row), excerpt: spansOf(row.headline, { before: row.cut_start, after: row.cut_end }) }));

/**
 * ts_headline's answer as spans of plain text, the matched words marked `highlight`: the text is
 * the article's own words, never markup, so whoever shows it escapes it as text. Lines (the body's
 * blocks and list items) stay apart as a line break; other runs of space are one space. Where words
 * were left out (`cut`), the text begins or ends with "…".
 */
export function spansOf(headline: string, cut: { before?: boolean; after?: boolean } = {}): Span[] {
  const spans: Span[] = [];
  for (const [i, part] of headline.split(START).entries()) {
    const [marked, rest] = i === 0 ? [undefined, part] : ((s) => [s[0], s.slice(1).join(STOP)])(part.split(STOP));
    if (marked) spans.push({ text: marked, highlight: true });
    if (rest) spans.push({ text: rest });
  }
  const text = (t: string) => t.replace(/\s+/g, (space) => (space.includes('\n') ? '\n' : ' '));
  const kept = spans.map((s) => ({ ...s, text: text(s.text) })).filter((s) => s.text !== '');
  if (!kept.length) return kept;
  if (cut.before) kept.unshift({ text: CUT });
  if (cut.after) kept.push({ text: CUT });
  return kept;
}
