import { createHash } from 'node:crypto';
import { html, safeUrl, trusted, type Html } from './html.js';
import { brandVariables, pageColor } from './colors.js';
import { STYLES } from './styles.js';

// One server-rendered page: the document, the app's brand (name, colour, logo), what search
// engines read (lang, title, description, canonical and alternate languages), and the headers
// that go with it. No script at all: everything works as links and plain forms. The stylesheet is
// inline and allowed by its hash; nothing is loaded from another host.

export interface Brand {
  name: string;
  /** #rrggbb; anything else falls back to the default. */
  color: string;
  /** https only; left out otherwise. */
  logoUrl: string | null;
}

export interface PageInput {
  /** BCP 47: the page's language. */
  lang: string;
  title: string;
  description?: string | undefined;
  /** The page's own address, absolute. */
  canonical?: string | undefined;
  /** The same page in other languages, absolute. */
  alternates?: { lang: string; href: string }[];
  /** Search results and other pages not worth indexing. */
  noindex?: boolean;
  brand: Brand;
  /** Where the brand in the header leads. */
  homeHref: string;
  /** What the header says after the brand's name (such as "Help Center"). */
  siteName: string;
  /** Beside the brand in the header (a language switch). */
  headerExtra?: Html;
  body: Html;
  footer?: Html;
}

export interface RenderedPage {
  html: string;
  headers: Record<string, string>;
}

export function renderPage(page: PageInput): RenderedPage {
  const color = pageColor(page.brand.color);
  // The brand's colours are the only part of the stylesheet that varies: checked #rrggbb values,
  // the brand's own, the text on it, and the brand as text on white (each at least READABLE).
  const css = `:root{${brandVariables(color)}}\n${STYLES}`;
  const logo = page.brand.logoUrl?.startsWith('https://') ? safeUrl(page.brand.logoUrl) : undefined;
  // The stylesheet is allowed by the hash of exactly what is between <style> and </style>: made
  // apart from the page's template, so that no line break a formatter adds lands inside it.
  const style = trusted(`<style>${css}</style>`);
  const doc = html`<!doctype html>
    <html lang="${page.lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${page.title}</title>
        ${page.description ? html`<meta name="description" content="${page.description}" />` : null}
        ${page.noindex ? html`<meta name="robots" content="noindex" />` : null}
        ${page.canonical ? html`<link rel="canonical" href="${page.canonical}" />` : null}
        ${(page.alternates ?? []).map((a) => html`<link rel="alternate" hreflang="${a.lang}" href="${a.href}" /> `)}
        <meta name="theme-color" content="${color}" />
        ${style}
      </head>
      <body>
        <header class="site-header">
          <div class="wrap header-row">
            <a class="brand" href="${page.homeHref}"
              >${logo ? html`<img class="logo" src="${logo}" alt="" width="32" height="32" />` : html`<span class="logo-letter" aria-hidden="true">${[...page.brand.name][0] ?? '?'}</span>`}<span
                class="brand-name"
                >${page.brand.name}</span
              >${page.siteName ? html`<span class="site-name">${page.siteName}</span>` : null}</a
            >
            ${page.headerExtra ?? null}
          </div>
        </header>
        ${page.body}
        <footer class="site-footer"><div class="wrap">${page.footer ?? html`© ${page.brand.name}`}</div></footer>
      </body>
    </html> `;
  const styleHash = createHash('sha256').update(css).digest('base64');
  return {
    html: doc.markup,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${styleHash}'; img-src 'self' https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    },
  };
}
