import type { HelpArticleRowFragment, HelpCollectionRowFragment, HelpModeFragment } from '../generated/graphql';

// The help center's lists: each language's state, titles and names, the public page's address.

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
