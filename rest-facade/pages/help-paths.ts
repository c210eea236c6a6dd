// Where the public help site's pages are: one site per app-mode, by its app key, a folder per language.
//   /help/<app key>                        → the reader's language (Accept-Language, else the default)
//   /help/<app key>/<lang>                 home: collections and a search box
//   /help/<app key>/<lang>/search?q=…      search
//   /help/<app key>/<lang>/collections/<slug>
//   /help/<app key>/<lang>/articles/<slug>  (POST …/rating: the helpful / not helpful form)

export const HELP_SITE_PREFIX = '/help';

export function helpSitePath(appKey: string, language?: string, kind?: 'articles' | 'collections' | 'search', slug?: string): string {
  const parts = [HELP_SITE_PREFIX, appKey, language, kind, slug]
    .filter((p): p is string => !!p)
    .map((p, i) => (i === 0 ? p.slice(1) : encodeURIComponent(p)));
  return `/${parts.join('/')}`;
}
