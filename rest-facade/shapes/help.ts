import { z } from 'zod';
import { LANGUAGE_TAG } from '../../src/domain/help/languages.js';
import { MAX_LIMIT } from '../../src/domain/help/search.js';
import { Span } from './content.js';

// The help center's wire shapes, the same on the guest and the public routes (the public ones only
// ever hold articles meant for everyone), and the query members both read.

export const HelpLanguageQuery = z
  .string()
  .regex(LANGUAGE_TAG, 'must be a BCP 47 language tag')
  .describe("The reader's language (BCP 47); else Accept-Language, else the app's default");

export const ArticlesQuery = z.object({
  q: z.string().max(200).optional().describe('Words to look for; the last one may be the start of a word. Without it: the most read first'),
  lang: HelpLanguageQuery.optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `must be a whole number from 1 to ${MAX_LIMIT}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `must be 1 to ${MAX_LIMIT}`).max(MAX_LIMIT, `must be 1 to ${MAX_LIMIT}`))
    .optional()
    .describe(`How many articles, 1 to ${MAX_LIMIT} (10 when left out)`),
});

export const SlugParams = z.object({ slug: z.string().min(1).max(100) });

const HelpContentBlock = z
  .object({
    type: z
      .enum(['heading', 'paragraph', 'list', 'numbered_list', 'image', 'callout', 'link'])
      .describe('A reader that does not know the type skips the block'),
    level: z.number().int().min(1).max(3).optional(),
    spans: z.array(Span).optional(),
    items: z.array(z.object({ spans: z.array(Span) })).optional(),
    imageUrl: z.string().optional().describe("An https address, or the service's picture address (a 302 to the picture)"),
    alt: z.string().optional(),
    label: z.string().optional(),
    link: z.string().optional(),
  })
  .describe("The spec's ContentBlock without its formatting members: only the members its type names are set")
  .meta({ id: 'HelpContentBlock' });

const CollectionRef = z.object({ slug: z.string(), name: z.string() }).meta({ id: 'HelpCollectionRef' });

export const ArticleItem = z
  .object({
    slug: z.string().describe('The same in every language'),
    title: z.string(),
    summary: z.string(),
    language: z.string().describe('The language it is served in: the one asked for, else the default'),
    collection: CollectionRef.nullable().describe('The collection or section it is in'),
    updated_at: z.iso.datetime({ offset: true }).describe('When this language was last published'),
    html_url: z.string().nullable().describe('Its page on the public help site; null for an article for signed-in users only'),
    excerpt: z
      .array(Span)
      .optional()
      .describe('Searches only: words of the body around the match, the matched words marked highlight. Plain text: show it escaped'),
  })
  .meta({ id: 'ArticleItem' });

export const ArticlesAnswer = z
  .object({
    items: z.array(ArticleItem),
    language: z.string().describe("The reader's language, as asked for (lang, Accept-Language) among the app's"),
    matched_by: z
      .enum(['most_read', 'words', 'similar_words'])
      .describe('most_read: no q; words: every word found; similar_words: none was, these have words like them'),
  })
  .meta({ id: 'Articles' });

export const ArticleAnswer = ArticleItem.extend({
  audience: z.enum(['everyone', 'signed_in']),
  blocks: z.array(HelpContentBlock),
  collection_path: z.array(CollectionRef).describe('The collection, then the section, it is in; empty when in none'),
  related: z.array(ArticleItem).describe('Other articles of its section or collection, in order (at most 5)'),
  languages: z.array(z.string()).describe('Every language it can be read in'),
}).meta({ id: 'Article' });

const CollectionSummary = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  language: z.string().describe('The language of its name and description'),
  article_count: z.number().int().describe('Articles the reader may read in it, its sections included'),
});

export const CollectionsAnswer = z
  .object({
    items: z.array(CollectionSummary.extend({ sections: z.array(CollectionSummary) })),
    language: z.string(),
  })
  .meta({ id: 'Collections' });

export const CollectionArticlesAnswer = CollectionSummary.extend({
  parent: CollectionRef.nullable().describe('The collection a section is in; null for a collection'),
  items: z.array(ArticleItem).describe('Its own articles, in order'),
  sections: z.array(CollectionSummary.extend({ items: z.array(ArticleItem) })),
}).meta({ id: 'CollectionArticles' });
