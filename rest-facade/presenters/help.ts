import type { z } from 'zod';
import type { Article } from '../../src/domain/help/article.js';
import type { CollectionArticles, CollectionEntry, CollectionSummary } from '../../src/domain/help/collections.js';
import { absolutePictureUrls } from '../../src/domain/help/pictures.js';
import type { HelpReader } from '../../src/domain/help/reader.js';
import type { ArticleList } from '../../src/domain/help/search.js';
import type { ArticleItem } from '../../src/domain/help/served.js';
import { helpSitePath } from '../pages/help-paths.js';
import type {
  ArticleAnswer,
  ArticleItem as ArticleItemAnswer,
  ArticlesAnswer,
  CollectionArticlesAnswer,
  CollectionsAnswer,
} from '../shapes/help.js';

// The help center's answers from what the domain read, the same on the guest and the public routes.

const present = {
  item: (baseUrl: string, reader: HelpReader, i: ArticleItem): z.input<typeof ArticleItemAnswer> => ({
    slug: i.slug,
    title: i.title,
    summary: i.summary,
    language: i.language,
    collection: i.collection,
    updated_at: i.updatedAt.toISOString(),
    html_url: i.audience === 'everyone' ? `${baseUrl}${helpSitePath(reader.app.appKey, i.language, 'articles', i.slug)}` : null,
    ...(i.excerpt ? { excerpt: i.excerpt } : {}),
  }),
  summary: (c: CollectionSummary) => ({
    slug: c.slug,
    name: c.name,
    description: c.description,
    language: c.language,
    article_count: c.articleCount,
  }),
};

export const presentArticles = (baseUrl: string, reader: HelpReader, list: ArticleList): z.input<typeof ArticlesAnswer> => ({
  items: list.items.map((i) => present.item(baseUrl, reader, i)),
  language: reader.language,
  matched_by: list.matchedBy,
});

export const presentArticle = (baseUrl: string, reader: HelpReader, a: Article): z.input<typeof ArticleAnswer> => ({
  ...present.item(baseUrl, reader, a),
  audience: a.audience,
  blocks: absolutePictureUrls(baseUrl, a.blocks),
  collection_path: a.collectionPath,
  related: a.related.map((r) => present.item(baseUrl, reader, r)),
  languages: a.languages,
});

export const presentCollections = (reader: HelpReader, items: CollectionEntry[]): z.input<typeof CollectionsAnswer> => ({
  items: items.map((c) => ({ ...present.summary(c), sections: c.sections.map(present.summary) })),
  language: reader.language,
});

export const presentCollection = (
  baseUrl: string,
  reader: HelpReader,
  c: CollectionArticles,
): z.input<typeof CollectionArticlesAnswer> => ({
  ...present.summary(c),
  parent: c.parent,
  items: c.items.map((i) => present.item(baseUrl, reader, i)),
  sections: c.sections.map((s) => ({ ...present.summary(s), items: s.items.map((i) => present.item(baseUrl, reader, i)) })),
});
