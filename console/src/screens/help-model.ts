import type { HelpArticleRowFragment, HelpCollectionRowFragment, HelpModeFragment } from '../generated/graphql';

// The help center as the console edits it: an article's blocks as fields (text a writer types),
// turned back into the service's ContentBlocks (heading 1 to 3, paragraph, list, numbered_list,
// image, callout, link; no formatting members), and the state of each language.

export const BLOCK_KINDS = ['paragraph', 'heading', 'list', 'numbered_list', 'callout', 'image', 'link'] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];
export const KIND_NAMES: Record<BlockKind, string> = {
  paragraph: 'Paragraph',
  heading: 'Heading',
  list: 'Bulleted list',
  numbered_list: 'Numbered list',
  callout: 'Callout',
  image: 'Picture',
  link: 'Link button',
};

export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  highlight?: boolean;
  link?: string;
}

export interface Block {
  type: string;
  level?: number;
  spans?: Span[];
  items?: { spans: Span[] }[];
  imageUrl?: string;
  alt?: string;
  label?: string;
  link?: string;
}

/** One block as its fields: `text` is a heading's, paragraph's or callout's words, or a list's items a line each. */
export interface EditBlock {
  key: string;
  type: BlockKind;
  level: number;
  text: string;
  imageUrl: string;
  alt: string;
  label: string;
  link: string;
  /** The spans as read, kept while their words are unchanged (bold, links and the like survive an edit elsewhere). */
  spans?: Span[] | undefined;
  items?: Span[][] | undefined;
}

export interface Edit {
  title: string;
  summary: string;
  blocks: EditBlock[];
}

let keys = 0;
export const newKey = () => `b${++keys}-${Date.now().toString(36)}`;

export const emptyBlock = (type: BlockKind): EditBlock => ({
  key: newKey(),
  type,
  level: 2,
  text: '',
  imageUrl: '',
  alt: '',
  label: '',
  link: '',
});

const words = (spans: Span[] | undefined) => (spans ?? []).map((s) => s.text).join('');

export function toEdit(draft: { title: string; summary: string; blocks: unknown } | undefined): Edit {
  const blocks = Array.isArray(draft?.blocks) ? (draft.blocks as Block[]) : [];
  return {
    title: draft?.title ?? '',
    summary: draft?.summary ?? '',
    blocks: blocks.flatMap((b): EditBlock[] => {
      if (!(BLOCK_KINDS as readonly string[]).includes(b.type)) return [];
      const type = b.type as BlockKind;
      const block = emptyBlock(type);
      if (b.items) {
        block.items = b.items.map((i) => i.spans);
        block.text = b.items.map((i) => words(i.spans).replace(/\n/g, ' ')).join('\n');
      } else if (b.spans) {
        block.spans = b.spans;
        block.text = words(b.spans);
      }
      return [{ ...block, level: b.level ?? 2, imageUrl: b.imageUrl ?? '', alt: b.alt ?? '', label: b.label ?? '', link: b.link ?? '' }];
    }),
  };
}

/** Words as spans: the spans read when the words are the same, else one plain span (one span's marks kept). */
function spansOf(text: string, read: Span[] | undefined): Span[] {
  if (read && words(read) === text) return read;
  return [read?.length === 1 ? { ...read[0]!, text } : { text }];
}

/** The blocks to save: empty ones (a paragraph not yet written, a picture not yet chosen) are left out until filled. */
export function toBlocks(blocks: EditBlock[]): Block[] {
  return blocks.flatMap((b): Block[] => {
    switch (b.type) {
      case 'heading':
        return b.text.trim() ? [{ type: 'heading', level: b.level, spans: spansOf(b.text, b.spans) }] : [];
      case 'paragraph':
      case 'callout':
        return b.text.trim() ? [{ type: b.type, spans: spansOf(b.text, b.spans) }] : [];
      case 'list':
      case 'numbered_list': {
        const lines = b.text.split('\n');
        const items = lines.flatMap((line, i) => (line.trim() ? [{ spans: spansOf(line, b.items?.[i]) }] : []));
        return items.length ? [{ type: b.type, items }] : [];
      }
      case 'image':
        return b.imageUrl.trim() ? [{ type: 'image', imageUrl: b.imageUrl.trim(), alt: b.alt }] : [];
      case 'link':
        return b.label.trim() && b.link.trim() ? [{ type: 'link', label: b.label, link: b.link.trim() }] : [];
    }
  });
}

/** What a save sends, as a string: two edits that would save the same compare equal. */
export const payloadOf = (e: Edit) => JSON.stringify({ title: e.title.trim(), summary: e.summary.trim(), blocks: toBlocks(e.blocks) });

export type LanguageState = 'none' | 'draft' | 'published' | 'changed';
export const STATE_WORDS: Record<LanguageState, string> = {
  none: 'Not written',
  draft: 'Draft',
  published: 'Published',
  changed: 'Published, with unpublished changes',
};

export function languageState(draft: { updatedAt: string } | undefined, published: { publishedAt: string } | undefined): LanguageState {
  if (!published) return draft ? 'draft' : 'none';
  return draft && Date.parse(draft.updatedAt) > Date.parse(published.publishedAt) ? 'changed' : 'published';
}

/** Each language the article is written in (the default language first), with its title and state. */
export function articleLanguages(a: HelpArticleRowFragment, defaultLanguage?: string) {
  const drafts = a.drafts.edges.map((e) => e.node);
  const published = a.published.edges.map((e) => e.node);
  const languages = [...new Set([...drafts.map((d) => d.language), ...published.map((p) => p.language)])].sort((x, y) =>
    x === defaultLanguage ? -1 : y === defaultLanguage ? 1 : x.localeCompare(y),
  );
  return languages.map((language) => {
    const d = drafts.find((x) => x.language === language);
    const p = published.find((x) => x.language === language);
    return { language, title: d?.title ?? p?.title ?? '', state: languageState(d, p) };
  });
}

/** The article's title in the default language, else its first. */
export function articleTitle(a: HelpArticleRowFragment, defaultLanguage: string) {
  const all = articleLanguages(a, defaultLanguage);
  return (all.find((l) => l.language === defaultLanguage) ?? all[0])?.title || a.slug;
}

export function collectionName(c: HelpCollectionRowFragment, defaultLanguage: string) {
  return (c.texts.find((t) => t.language === defaultLanguage) ?? c.texts[0])?.name ?? c.slug;
}

const names = new Intl.DisplayNames(['en'], { type: 'language' });
export const languageName = (tag: string) => {
  try {
    return names.of(tag) ?? tag;
  } catch {
    return tag;
  }
};

/** A slug from a name: lower-case letters and digits joined by single hyphens (accents dropped), at most 80 characters. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || `article-${Date.now().toString(36)}`;
}

/** Where readers find the article on the public help site. */
export const publicArticlePath = (mode: HelpModeFragment, language: string, slug: string) =>
  `/help/${mode.appKey}/${encodeURIComponent(language)}/articles/${encodeURIComponent(slug)}`;
