import { Prisma } from '../../generated/prisma/client.js';
import type { Span } from './blocks.js';
import { searchConfigOf } from './languages.js';
import { audiencesOf, type HelpCtx, type HelpReader } from './reader.js';
import { itemsOf, servedLanguages, servedVersions, type ArticleItem, type ServedRow } from './served.js';

// GET …/articles: with no words, the articles most read in the reader's language first; with
// words, PostgreSQL full-text search over the served versions, in each language's own
// text-search configuration, title weighted above summary above body, the last word read as a
// prefix (the reader may still be typing it). When no article has every word, the words are
// matched by trigrams against titles and summaries instead, so a misspelt word still finds its
// article. Each match carries an excerpt of its body with the matched words marked.

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
/** Words of a query read; the rest are ignored. */
export const MAX_WORDS = 10;
const MAX_WORD_CHARS = 60;

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
const HEADLINE = `StartSel=${START}, StopSel=${STOP}, MaxWords=30, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

/** The words of a query: letters and digits, lower-cased, at most MAX_WORDS. */
export function wordsOf(q: string | undefined): string[] {
  return (q?.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS).map((w) => w.slice(0, MAX_WORD_CHARS));
}

/** to_tsquery text: every word, the last one as a prefix. Words are letters and digits only, so nothing in them is an operator. */
const tsqueryText = (words: string[]) => words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');

export async function listArticles(ctx: HelpCtx, reader: HelpReader, input: { q?: string | undefined; limit?: number | undefined }): Promise<ArticleList> {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const words = wordsOf(input.q);
  if (!words.length) return { items: await itemsOf(ctx, reader, await mostRead(ctx, reader, limit)), matchedBy: 'most_read' };
  const found = await fullText(ctx, reader, words, limit);
  if (found.length) return { items: await withExcerpts(ctx, reader, found, words), matchedBy: 'words' };
  const similar = await similarWords(ctx, reader, words, limit);
  return { items: await withExcerpts(ctx, reader, similar, words), matchedBy: 'similar_words' };
}

/** Most views in the language served first, then the staff's order. */
async function mostRead(ctx: HelpCtx, reader: HelpReader, limit: number): Promise<ServedRow[]> {
  const rows = await servedVersions(ctx, reader);
  const views = await ctx.db.$queryRaw<{ article_id: string; language: string; views: bigint }[]>`
    SELECT article_id, language, views FROM help_article_stat
    WHERE app_mode_id = ${reader.appModeId} AND language = ANY(${servedLanguages(reader)}::text[])`;
  const count = new Map(views.map((v) => [`${v.article_id}/${v.language}`, Number(v.views)]));
  const viewsOf = (r: ServedRow) => count.get(`${r.article_id}/${r.language}`) ?? 0;
  return rows.sort((a, b) => viewsOf(b) - viewsOf(a) || a.position - b.position || a.slug.localeCompare(b.slug)).slice(0, limit);
}

type Ranked = ServedRow & { rank: number };

/**
 * The served versions having every word, best first. The reader's language is searched with its
 * configuration; articles not published in it, in the default language with that one's.
 */
function fullText(ctx: HelpCtx, reader: HelpReader, words: string[], limit: number): Promise<Ranked[]> {
  const text = tsqueryText(words);
  const own = reader.language;
  const fallback = reader.app.defaultLanguage;
  const audiences = audiencesOf(reader);
  const inLanguage = (language: string, notIn: string | null) => Prisma.sql`
    SELECT p.article_id, p.language, p.title, p.summary, p.published_at,
           ts_rank(${WEIGHTS}::float4[], p.search, to_tsquery(${searchConfigOf(language)}::regconfig, ${text})) AS rank
    FROM help_article_published p
    WHERE p.app_mode_id = ${reader.appModeId} AND p.language = ${language}
      AND p.search @@ to_tsquery(${searchConfigOf(language)}::regconfig, ${text})
      ${notIn ? Prisma.sql`AND NOT EXISTS (SELECT 1 FROM help_article_published o WHERE o.article_id = p.article_id AND o.language = ${notIn})` : Prisma.empty}`;
  return ctx.db.$queryRaw<Ranked[]>`
    SELECT a.id AS article_id, a.slug, a.collection_id, a.position, a.audience::text AS audience, h.language, h.title, h.summary, h.published_at, h.rank
    FROM (${inLanguage(own, null)} ${fallback !== own ? Prisma.sql`UNION ALL ${inLanguage(fallback, own)}` : Prisma.empty}) h
    JOIN help_article a ON a.id = h.article_id
    WHERE a.audience::text = ANY(${audiences}::text[])
    ORDER BY h.rank DESC, a.position, a.slug
    LIMIT ${limit}`;
}

/**
 * Served versions whose title or summary holds a word like one of the query's (pg_trgm word
 * similarity, at its default threshold of 0.6), most alike first; words under three letters are
 * too short to compare.
 */
async function similarWords(ctx: HelpCtx, reader: HelpReader, words: string[], limit: number): Promise<Ranked[]> {
  const long = words.filter((w) => [...w].length >= 3);
  if (!long.length) return [];
  const alike = Prisma.join(long.map((w) => Prisma.sql`p.title %> ${w} OR p.summary %> ${w}`), ' OR ');
  const score = Prisma.join(long.map((w) => Prisma.sql`greatest(word_similarity(${w}, p.title), 0.5 * word_similarity(${w}, p.summary))`), ' + ');
  const served = await servedVersions(ctx, reader, Prisma.sql`AND EXISTS (SELECT 1 FROM help_article_published p WHERE p.article_id = a.id AND p.language = ANY(${servedLanguages(reader)}::text[]) AND (${alike}))`);
  if (!served.length) return [];
  // Scored on the version served (the reader's language where there is one).
  const scores = await ctx.db.$queryRaw<{ article_id: string; language: string; rank: number }[]>`
    SELECT p.article_id, p.language, (${score})::float8 AS rank FROM help_article_published p
    WHERE p.article_id = ANY(${served.map((r) => r.article_id)}::text[]) AND p.language = ANY(${servedLanguages(reader)}::text[])`;
  const rank = new Map(scores.map((s) => [`${s.article_id}/${s.language}`, s.rank]));
  return served
    .map((r) => ({ ...r, rank: rank.get(`${r.article_id}/${r.language}`) ?? 0 }))
    .filter((r) => r.rank > 0)
    .sort((a, b) => b.rank - a.rank || a.position - b.position || a.slug.localeCompare(b.slug))
    .slice(0, limit);
}

/** Items with their excerpts: ts_headline over each body, in its language's configuration. */
async function withExcerpts(ctx: HelpCtx, reader: HelpReader, rows: Ranked[], words: string[]): Promise<ArticleItem[]> {
  if (!rows.length) return [];
  // The matched words: every word as typed (a prefix for the last), OR'ed, so the similar-word fallback marks what it can.
  const text = words.map((w) => `${w}:*`).join(' | ');
  const heads = await ctx.db.$queryRaw<{ article_id: string; headline: string }[]>`
    SELECT p.article_id, ts_headline(p.search_config::regconfig, p.body_text, to_tsquery(p.search_config::regconfig, ${text}), ${HEADLINE}) AS headline
    FROM help_article_published p
    JOIN unnest(${rows.map((r) => r.article_id)}::text[], ${rows.map((r) => r.language)}::text[]) AS s(article_id, language)
      ON p.article_id = s.article_id AND p.language = s.language`;
  const headline = new Map(heads.map((h) => [h.article_id, h.headline]));
  const items = await itemsOf(ctx, reader, rows);
  return items.map((item) => ({ ...item, excerpt: spansOf(headline.get(item.articleId) ?? '') }));
}

/**
 * ts_headline's answer as spans of plain text, the matched words marked `highlight`: the text is
 * the article's own words, never markup, so whoever shows it escapes it as text.
 */
export function spansOf(headline: string): Span[] {
  const spans: Span[] = [];
  for (const [i, part] of headline.split(START).entries()) {
    const [marked, rest] = i === 0 ? [undefined, part] : ((s) => [s[0], s.slice(1).join(STOP)])(part.split(STOP));
    if (marked) spans.push({ text: marked, highlight: true });
    if (rest) spans.push({ text: rest });
  }
  return spans.map((s) => ({ ...s, text: s.text.replace(/\s+/g, ' ') })).filter((s) => s.text !== '');
}
