import type { Article } from '../../src/domain/help/article.js';
import type { Span } from '../../src/domain/help/blocks.js';
import type { CollectionArticles, CollectionEntry } from '../../src/domain/help/collections.js';
import type { HelpReader } from '../../src/domain/help/reader.js';
import type { ArticleList } from '../../src/domain/help/search.js';
import type { ArticleItem } from '../../src/domain/help/served.js';
import { html, outlined, renderBlocks, renderPage, renderSpans, trusted, type Html, type RenderedPage } from '../../src/lib/html/index.js';
import { helpSitePath } from './help-paths.js';
import { languageName, wordsFor } from './help-words.js';

// The public help site's pages, made with the shared page renderer (src/lib/html): home with the
// collections and a search box, a collection, an article with its helpful / not helpful form, and
// search results. Links and forms only: every page works without JavaScript.

export interface Site {
  reader: HelpReader;
  /** The service's own address (BASE_URL), for canonical and alternate links. */
  baseUrl: string;
}

const path = (site: Site, kind?: 'articles' | 'collections' | 'search', slug?: string, language = site.reader.language) =>
  helpSitePath(site.reader.app.appKey, language, kind, slug);

function page(
  site: Site,
  input: {
    /** What the page is, before the site's name; left out on the home page, which is the site itself. */
    title?: string;
    description?: string;
    canonicalPath?: string;
    alternates?: { lang: string; path: string }[];
    noindex?: boolean;
    body: Html;
    languageLinks: (language: string) => string;
  },
): RenderedPage {
  const { reader } = site;
  const words = wordsFor(reader.language);
  const languages = reader.app.languages;
  const switcher =
    languages.length > 1
      ? html`<nav aria-label="${words.language}">
          <ul class="languages">
            ${languages.map(
              (l) =>
                html`<li>
                  <a
                    href="${input.languageLinks(l)}"
                    hreflang="${l}"
                    lang="${l}"
                    ${l === reader.language ? html` aria-current="true"` : null}
                    >${languageName(l)}</a
                  >
                </li>`,
            )}
          </ul>
        </nav>`
      : undefined;
  return renderPage({
    lang: reader.language,
    // The site's name once: "Acme Help Center" on the home page, "Reset your password · Acme Help Center" below it.
    title: input.title ? `${input.title} · ${reader.app.brandName} ${words.helpCenter}` : `${reader.app.brandName} ${words.helpCenter}`,
    description: input.description,
    canonical: input.canonicalPath && site.baseUrl + input.canonicalPath,
    alternates: input.alternates?.map((a) => ({ lang: a.lang, href: site.baseUrl + a.path })),
    noindex: input.noindex,
    brand: { name: reader.app.brandName, color: reader.app.brandColor, logoUrl: reader.app.brandLogoUrl },
    homeHref: path(site),
    siteName: words.helpCenter,
    headerExtra: switcher,
    body: input.body,
  });
}

const searchBox = (site: Site, q = '', compact = false) => {
  const words = wordsFor(site.reader.language);
  return html`<form class="search${compact ? ' compact' : ''}" role="search" method="get" action="${path(site, 'search')}">
    <input
      type="search"
      name="q"
      value="${q}"
      placeholder="${words.searchPlaceholder}"
      aria-label="${words.search}"
      maxlength="200"
      ${compact ? null : html` autofocus`}
    />
    <button type="submit">${words.search}</button>
  </form>`;
};

/** lang on what is written in another language than the page (an article served in the default language). */
const langOf = (site: Site, language: string) => (language === site.reader.language ? null : html` lang="${language}"`);

const articleList = (site: Site, items: ArticleItem[]) =>
  html`<ul class="list">
    ${items.map((i) => html`<li${langOf(site, i.language)}><a href="${path(site, 'articles', i.slug)}"><span>${i.title}${i.summary ? html`<span class="summary">${i.summary}</span>` : null}</span></a></li>`)}
  </ul>`;

// Thumbs up and down, drawn inline (no icon font, no emoji font needed).
const THUMB = trusted(
  '<svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path fill="currentColor" d="M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3a1.5 1.5 0 0 0-.4-1L13.2 1 6.6 7.6A2 2 0 0 0 6 9v10a2 2 0 0 0 2 2h9a2 2 0 0 0 1.8-1.2l3-7.1.2-.7v-2z"/></svg>',
);
const THUMB_DOWN = trusted(
  '<svg class="icon flip" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path fill="currentColor" d="M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3a1.5 1.5 0 0 0-.4-1L13.2 1 6.6 7.6A2 2 0 0 0 6 9v10a2 2 0 0 0 2 2h9a2 2 0 0 0 1.8-1.2l3-7.1.2-.7v-2z"/></svg>',
);

const everyLanguage = (site: Site, to: (language: string) => string) => site.reader.app.languages.map((l) => ({ lang: l, path: to(l) }));

export function homePage(site: Site, collections: CollectionEntry[], popular: ArticleList): RenderedPage {
  const words = wordsFor(site.reader.language);
  // Nothing published for this reader: say so, rather than a search box that can find nothing.
  const empty = !collections.length && !popular.items.length;
  const body = html`<main>
    <section class="hero">
      <div class="wrap">
        <h1>${words.howCanWeHelp}</h1>
        ${empty ? null : searchBox(site)}
      </div>
    </section>
    <div class="content">
      <div class="wrap">
        ${
          empty
            ? html`<div class="panel empty-state">
                <h2>${words.noArticlesYet}</h2>
                <p>${words.noArticlesYetHint}</p>
              </div>`
            : null
        }
        ${
          collections.length
            ? html`<ul class="cards">
                ${collections.map(
                  (c) =>
                    html`<li>
                      <a class="card" href="${path(site, 'collections', c.slug)}"
                        ><span class="card-icon" aria-hidden="true">${[...c.name][0] ?? ''}</span>
                        <h2>${c.name}</h2>
                        ${c.description ? html`<p>${c.description}</p>` : null}<span class="count"
                          >${words.articles(c.articleCount)}</span
                        ></a
                      >
                    </li>`,
                )}
              </ul>`
            : null
        }
        ${
          popular.items.length
            ? html`<h2 class="section-title">${words.popular}</h2>
                <div class="panel">${articleList(site, popular.items)}</div>`
            : null
        }
      </div>
    </div>
  </main>`;
  return page(site, {
    description: `${site.reader.app.brandName}: ${words.howCanWeHelp}`,
    canonicalPath: path(site),
    alternates: everyLanguage(site, (l) => path(site, undefined, undefined, l)),
    body,
    languageLinks: (l) => path(site, undefined, undefined, l),
  });
}

export function collectionPage(site: Site, c: CollectionArticles): RenderedPage {
  const words = wordsFor(site.reader.language);
  const body = html`<main class="content">
    <div class="wrap">
      ${searchBox(site, '', true)}
      <ol class="crumbs">
        <li><a href="${path(site)}">${words.home}</a></li>
        ${c.parent ? html`<li><a href="${path(site, 'collections', c.parent.slug)}">${c.parent.name}</a></li>` : null}
        <li aria-current="page">${c.name}</li>
      </ol>
      <div class="panel">
        <h1 class="page-title">${c.name}</h1>
        ${c.description ? html`<p class="lead">${c.description}</p>` : null}
        <p class="count">${words.articles(c.articleCount)}</p>
        ${c.items.length ? articleList(site, c.items) : null}
        ${c.sections.map(
          (s) =>
            html`<h2 class="section-title"><a href="${path(site, 'collections', s.slug)}">${s.name}</a></h2>
              ${articleList(site, s.items)}`,
        )}
      </div>
    </div>
  </main>`;
  return page(site, {
    title: c.name,
    description: c.description || c.name,
    canonicalPath: path(site, 'collections', c.slug),
    alternates: everyLanguage(site, (l) => path(site, 'collections', c.slug, l)),
    body,
    languageLinks: (l) => path(site, 'collections', c.slug, l),
  });
}

export function articlePage(site: Site, a: Article, vote: { visitor: string; voted?: boolean | undefined }): RenderedPage {
  const words = wordsFor(site.reader.language);
  const dateFormat = new Intl.DateTimeFormat(site.reader.language, { dateStyle: 'long', timeZone: 'UTC' });
  const pressed = (helpful: boolean) => (vote.voted === helpful ? html` aria-pressed="true"` : html` aria-pressed="false"`);
  const fallback = a.language !== site.reader.language;
  const body = html`<main class="content">
    <div class="wrap">
      ${searchBox(site, '', true)}
      <ol class="crumbs">
        <li><a href="${path(site)}">${words.home}</a></li>
        ${a.collectionPath.map((c) => html`<li><a href="${path(site, 'collections', c.slug)}">${c.name}</a></li>`)}
      </ol>
      <div class="layout">
        <article class="panel" lang="${a.language}">
          <h1 class="page-title">${a.title}</h1>
          ${a.summary ? html`<p class="lead">${a.summary}</p>` : null}
          <p class="meta">
            ${fallback ? html`${words.inOtherLanguage} ${languageName(a.language)}. ` : null}${words.updated}
            <time datetime="${a.updatedAt.toISOString()}">${dateFormat.format(a.updatedAt)}</time>
          </p>
          <div class="article">${renderBlocks(outlined(a.blocks), { firstHeading: 2 })}</div>
          <section class="feedback" id="feedback" aria-live="polite">
            ${vote.voted === undefined ? html`<p>${words.wasHelpful}</p>` : html`<p class="thanks">${words.thanks}</p>`}
            <form method="post" action="${path(site, 'articles', a.slug)}/rating">
              <input type="hidden" name="visitor" value="${vote.visitor}" />
              <input type="hidden" name="language" value="${a.language}" />
              <button type="submit" name="helpful" value="yes" ${pressed(true)}>${THUMB} ${words.yes}</button>
              <button type="submit" name="helpful" value="no" ${pressed(false)}>${THUMB_DOWN} ${words.no}</button>
            </form>
          </section>
        </article>
        ${
          a.related.length
            ? html`<aside class="panel side">
                <h2>${words.related}</h2>
                <ul>
                  ${a.related.map((r) => html`<li${langOf(site, r.language)}><a href="${path(site, 'articles', r.slug)}">${r.title}</a></li>`)}
                </ul>
              </aside>`
            : null
        }
      </div>
    </div>
  </main>`;
  // A fallback's canonical is the page in the language it is written in: one address per text.
  return page(site, {
    title: a.title,
    description: a.summary || a.title,
    canonicalPath: path(site, 'articles', a.slug, a.language),
    alternates: a.languages.map((l) => ({ lang: l, path: path(site, 'articles', a.slug, l) })),
    body,
    languageLinks: (l) => path(site, 'articles', a.slug, l),
  });
}

/** An excerpt, its lines (the body's blocks and list items) kept apart by a dot rather than run together. */
const excerptOf = (spans: Span[]) =>
  html`${spans.flatMap((s) =>
    s.text
      .split('\n')
      .map((text, i) => html`${i ? html`<span class="sep" aria-hidden="true"> · </span>` : null}${renderSpans([{ ...s, text }])}`),
  )}`;

export function searchPage(site: Site, q: string, found: ArticleList): RenderedPage {
  const words = wordsFor(site.reader.language);
  const body = html`<main class="content">
    <div class="wrap">
      ${searchBox(site, q, true)}
      <ol class="crumbs">
        <li><a href="${path(site)}">${words.home}</a></li>
        <li aria-current="page">${words.search}</li>
      </ol>
      <div class="panel">
        <h1 class="page-title">${q ? words.resultsFor(q) : words.search}</h1>
        ${found.matchedBy === 'similar_words' && found.items.length ? html`<p class="lead">${words.similarFor(q)}</p>` : null}
        ${
          found.items.length
            ? html`<ul class="results">
                ${found.items.map((i) => html`<li${langOf(site, i.language)}><a href="${path(site, 'articles', i.slug)}">${i.title}</a>${i.collection ? html`<div class="where">${i.collection.name}</div>` : null}<p>${i.excerpt?.length ? excerptOf(i.excerpt) : i.summary}</p></li>`)}
              </ul>`
            : html`<div class="empty">
                <p>${words.noResults}</p>
                <p><a href="${path(site)}">${words.browseAll}</a></p>
              </div>`
        }
      </div>
    </div>
  </main>`;
  const query = q ? `?q=${encodeURIComponent(q)}` : '';
  return page(site, {
    title: q ? words.resultsFor(q) : words.search,
    noindex: true,
    body,
    languageLinks: (l) => `${path(site, 'search', undefined, l)}${query}`,
  });
}

/** A page saying what went wrong (404, 429), in the reader's language when known, with the brand when known. */
export function errorPage(site: Site | undefined, status: number, language = 'en'): RenderedPage {
  const words = wordsFor(site?.reader.language ?? language);
  const body = html`<main class="content">
    <div class="wrap error">
      <h1>${status === 429 ? words.tooMany : status === 503 ? words.busy : words.notFound}</h1>
      ${status === 429 || status === 503 ? null : html`<p>${words.notFoundHint}</p>`}
      ${site ? html`<p><a href="${path(site)}">${words.backHome}</a></p>` : null}
    </div>
  </main>`;
  if (site) return page(site, { title: words.notFound, noindex: true, body, languageLinks: (l) => path(site, undefined, undefined, l) });
  return renderPage({
    lang: language,
    title: `${words.notFound} · ${words.helpCenter}`,
    noindex: true,
    brand: { name: words.helpCenter, color: '', logoUrl: null },
    homeHref: '/',
    siteName: '',
    body,
  });
}
