import { notFound } from '../errors.js';
import type { ContentBlock } from './blocks.js';
import type { HelpCtx, HelpReader } from './reader.js';
import { collectionNames, itemOf, servedVersions, type ArticleItem } from './served.js';
import { countView } from './views.js';
import { sql } from '../../db/sql.js';

// GET …/articles/{slug}: the article in the reader's language (else the default's), its blocks,
// where it sits (collection, then section), and related articles: the others of its section or
// collection in the staff's order. Each read counts a view (views.ts).

/** Related articles shown with an article. */
export const RELATED = 5;

export interface Article extends ArticleItem {
  /** As kept: the app's pictures by their path on this service (absolutePictureUrls). */
  blocks: ContentBlock[];
  /** The collection, then the section, it is in (empty when in none). */
  collectionPath: { slug: string; name: string }[];
  related: ArticleItem[];
  /** Every language the reader could read it in (published, among the app's languages). */
  languages: string[];
}

export async function readArticle(ctx: HelpCtx, reader: HelpReader, slug: string): Promise<Article> {
  const [row] = await servedVersions(ctx, reader, sql`AND a.slug = ${slug}`);
  if (!row) throw notFound('No such article.');
  const [version, published, path] = await Promise.all([
    ctx.db.helpArticlePublished.findUniqueOrThrow({
      where: { articleId_language: { articleId: row.article_id, language: row.language } },
      select: { blocks: true },
    }),
    ctx.db.helpArticlePublished.findMany({ where: { articleId: row.article_id }, select: { language: true } }),
    collectionPath(ctx, reader, row.collection_id),
  ]);
  const related = row.collection_id
    ? (await servedVersions(ctx, reader, sql`AND a.collection_id = ${row.collection_id} AND a.id <> ${row.article_id}`))
        .sort((a, b) => a.position - b.position || a.slug.localeCompare(b.slug))
        .slice(0, RELATED)
    : [];
  countView(ctx, { articleId: row.article_id, language: row.language, appModeId: reader.appModeId });
  return {
    ...itemOf(row),
    blocks: version.blocks as unknown as ContentBlock[],
    collectionPath: path,
    related: related.map(itemOf),
    languages: reader.app.languages.filter((l) => published.some((p) => p.language === l)),
  };
}

/** The collection (and its parent, when it is a section) by name, outermost first. */
async function collectionPath(ctx: HelpCtx, reader: HelpReader, collectionId: string | null): Promise<{ slug: string; name: string }[]> {
  if (!collectionId) return [];
  const own = await ctx.db.helpCollection.findFirst({
    where: { id: collectionId, appModeId: reader.appModeId },
    select: { id: true, parentId: true },
  });
  if (!own) return [];
  const ids = own.parentId ? [own.parentId, own.id] : [own.id];
  const names = await collectionNames(ctx, reader, ids);
  return ids.flatMap((id) => {
    const n = names.get(id);
    return n ? [{ slug: n.slug, name: n.name }] : [];
  });
}
