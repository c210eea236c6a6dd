import { notFound } from '../errors.js';
import { audiencesOf, type HelpCtx, type HelpReader } from './reader.js';
import { collectionNames, itemOf, servedLanguages, servedVersions, type ArticleItem } from './served.js';
import { rows, sql } from '../../db/sql.js';

// GET …/collections and …/collections/{slug}: the collections in the staff's order, each with its
// sections, named in the reader's language (else the default's). A collection or section shows
// only while it holds an article the reader may read, so a public reader never meets one that
// holds only articles for signed-in users.

export interface CollectionSummary {
  collectionId: string;
  slug: string;
  name: string;
  description: string;
  /** The language of its name and description. */
  language: string;
  /** Articles the reader may read in it (its sections' included). */
  articleCount: number;
}

export interface CollectionEntry extends CollectionSummary {
  sections: CollectionSummary[];
}

export interface CollectionArticles extends CollectionSummary {
  /** The collection a section is in; null for a collection. */
  parent: { slug: string; name: string } | null;
  /** Its own articles, in the staff's order. */
  items: ArticleItem[];
  /** A collection's sections, each with its articles. */
  sections: (CollectionSummary & { items: ArticleItem[] })[];
}

interface Node {
  id: string;
  parentId: string | null;
  slug: string;
  position: number;
}

/** Each collection and section with its own count of readable articles. */
async function readable(ctx: HelpCtx, reader: HelpReader): Promise<{ nodes: Node[]; own: Map<string, number> }> {
  const [nodes, counts] = await Promise.all([
    ctx.db.helpCollection.findMany({
      where: { appModeId: reader.appModeId },
      select: { id: true, parentId: true, slug: true, position: true },
      orderBy: [{ position: 'asc' }, { slug: 'asc' }],
    }),
    rows<{ collection_id: string; n: string }>(
      ctx,
      sql`
      SELECT a.collection_id, count(*) AS n FROM help_article a
      WHERE a.app_mode_id = ${reader.appModeId} AND a.collection_id IS NOT NULL AND a.audience::text = ANY(${audiencesOf(reader)}::text[])
        AND EXISTS (SELECT 1 FROM help_article_published p WHERE p.article_id = a.id AND p.language = ANY(${servedLanguages(reader)}::text[]))
      GROUP BY a.collection_id`,
    ),
  ]);
  return { nodes, own: new Map(counts.map((c) => [c.collection_id, Number(c.n)])) };
}

function summaries(nodes: Node[], own: Map<string, number>, names: Awaited<ReturnType<typeof collectionNames>>) {
  const sectionsOf = (id: string) => nodes.filter((n) => n.parentId === id);
  const summary = (n: Node, count: number): CollectionSummary | undefined => {
    const name = names.get(n.id);
    return name && count > 0
      ? { collectionId: n.id, slug: n.slug, name: name.name, description: name.description, language: name.language, articleCount: count }
      : undefined;
  };
  const entry = (n: Node): CollectionEntry | undefined => {
    const sections = sectionsOf(n.id).flatMap((s) => summary(s, own.get(s.id) ?? 0) ?? []);
    const top = summary(n, (own.get(n.id) ?? 0) + sections.reduce((sum, s) => sum + s.articleCount, 0));
    return top && { ...top, sections };
  };
  return { entry, summary, sectionsOf };
}

export async function listCollections(ctx: HelpCtx, reader: HelpReader): Promise<CollectionEntry[]> {
  const { nodes, own } = await readable(ctx, reader);
  const { entry } = summaries(
    nodes,
    own,
    await collectionNames(
      ctx,
      reader,
      nodes.map((n) => n.id),
    ),
  );
  return nodes.filter((n) => n.parentId === null).flatMap((n) => entry(n) ?? []);
}

export async function readCollection(ctx: HelpCtx, reader: HelpReader, slug: string): Promise<CollectionArticles> {
  const { nodes, own } = await readable(ctx, reader);
  const node = nodes.find((n) => n.slug === slug);
  if (!node) throw notFound('No such collection.');
  const parent = node.parentId ? nodes.find((n) => n.id === node.parentId) : undefined;
  const names = await collectionNames(ctx, reader, [
    node.id,
    ...(parent ? [parent.id] : []),
    ...nodes.filter((n) => n.parentId === node.id).map((n) => n.id),
  ]);
  const { entry, summary } = summaries(nodes, own, names);
  const self: CollectionEntry | undefined = node.parentId
    ? ((s) => s && { ...s, sections: [] })(summary(node, own.get(node.id) ?? 0))
    : entry(node);
  if (!self) throw notFound('No such collection.');
  const { sections } = self;
  const rows = await servedVersions(
    ctx,
    reader,
    sql`AND a.collection_id = ANY(${[node.id, ...sections.map((s) => s.collectionId)]}::text[])`,
  );
  rows.sort((a, b) => a.position - b.position || a.slug.localeCompare(b.slug));
  const items = rows.map(itemOf);
  const parentName = parent && names.get(parent.id);
  return {
    ...self,
    parent: parentName ? { slug: parentName.slug, name: parentName.name } : null,
    items: items.filter((i) => i.collectionId === node.id),
    sections: sections.map((s) => ({ ...s, items: items.filter((i) => i.collectionId === s.collectionId) })),
  };
}
