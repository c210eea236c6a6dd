import type { Span } from './blocks.js';
import { audiencesOf, type HelpCtx, type HelpReader } from './reader.js';
import { empty, rows, sql, type Sql } from '../../db/sql.js';

// The version of an article a reader is served: the published one in their language, else the
// published one in the app's default language (the answer says which). An article published in
// neither, or meant for signed-in users when the reader is not one, is not served at all.

/** One article as lists show it. */
export interface ArticleItem {
  articleId: string;
  slug: string;
  title: string;
  summary: string;
  /** The language it is served in. */
  language: string;
  collectionId: string | null;
  collection: { slug: string; name: string } | null;
  audience: 'everyone' | 'signed_in';
  position: number;
  updatedAt: Date;
  /** Searches only: where the words matched in the body, the matched words marked `highlight`. */
  excerpt?: Span[];
}

export interface ServedRow {
  article_id: string;
  slug: string;
  collection_id: string | null;
  position: number;
  audience: 'everyone' | 'signed_in';
  language: string;
  title: string;
  summary: string;
  published_at: Date;
  /** The collection or section it is in, named in the reader's language (else the default, else any). */
  collection_slug: string | null;
  collection_name: string | null;
}

/** The languages a reader may be served: theirs, then the default. */
export const servedLanguages = (reader: HelpReader) => [...new Set([reader.language, reader.app.defaultLanguage])];

/**
 * The served version of each article of the reader's app-mode that `where` (over `a`, the
 * article) admits: one row per article, with its collection's name.
 */
export function servedVersions(ctx: HelpCtx, reader: HelpReader, where: Sql = empty): Promise<ServedRow[]> {
  return rows<ServedRow>(ctx, withCollections(reader, servedStatement(reader, where)));
}

/** Which of a collection's names (help_collection_text `t`) a reader gets: their language's, else the default's, else any. */
const namePreference = (reader: HelpReader) =>
  sql`(t.language = ${reader.language}) DESC, (t.language = ${reader.app.defaultLanguage}) DESC, t.language`;

/**
 * The rows of `statement` (served versions, already cut to the page) with their collections'
 * slugs and names: the same choice of name as collectionNames, in the same statement.
 */
export function withCollections(reader: HelpReader, statement: Sql): Sql {
  return sql`
    SELECT s.*, n.slug AS collection_slug, n.name AS collection_name FROM (${statement}) s
    LEFT JOIN LATERAL (
      SELECT c.slug, t.name FROM help_collection c JOIN help_collection_text t ON t.collection_id = c.id
      WHERE c.id = s.collection_id
      ORDER BY ${namePreference(reader)}
      LIMIT 1) n ON true`;
}

/** The statement of the served versions (without their collections' names), to read from in a larger one. */
export function servedStatement(reader: HelpReader, where: Sql = empty): Sql {
  return sql`
    SELECT DISTINCT ON (a.id) a.id AS article_id, a.slug, a.collection_id, a.position, a.audience::text AS audience,
           p.language, p.title, p.summary, p.published_at
    FROM help_article a
    JOIN help_article_published p ON p.article_id = a.id AND p.language = ANY(${servedLanguages(reader)}::text[])
    WHERE a.app_mode_id = ${reader.appModeId} AND a.audience::text = ANY(${audiencesOf(reader)}::text[]) ${where}
    ORDER BY a.id, (p.language = ${reader.language}) DESC`;
}

/** The name of each collection in the reader's language, else the default, else any it has. */
export async function collectionNames(
  ctx: HelpCtx,
  reader: HelpReader,
  ids: string[],
): Promise<Map<string, { slug: string; name: string; description: string; language: string }>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const found = await rows<{ id: string; slug: string; name: string; description: string; language: string }>(
    ctx,
    sql`
    SELECT DISTINCT ON (c.id) c.id, c.slug, t.name, t.description, t.language
    FROM help_collection c JOIN help_collection_text t ON t.collection_id = c.id
    WHERE c.app_mode_id = ${reader.appModeId} AND c.id = ANY(${unique}::text[])
    ORDER BY c.id, ${namePreference(reader)}`,
  );
  return new Map(found.map((r) => [r.id, r]));
}

/** A row as an item. */
export function itemOf(r: ServedRow): ArticleItem {
  return {
    articleId: r.article_id,
    slug: r.slug,
    title: r.title,
    summary: r.summary,
    language: r.language,
    collectionId: r.collection_id,
    collection: r.collection_slug !== null && r.collection_name !== null ? { slug: r.collection_slug, name: r.collection_name } : null,
    audience: r.audience,
    position: r.position,
    updatedAt: r.published_at,
  };
}
