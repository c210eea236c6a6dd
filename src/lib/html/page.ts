import { createHash } from 'node:crypto';
import { html, safeUrl, trusted, type Html } from './html.js';
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

const DEFAULT_COLOR = '#3b5bdb';

/** WCAG's least contrast for body text (1.4.3, AA). */
export const READABLE = 4.5;

/** WCAG 2 relative luminance of #rrggbb. */
export function luminance(color: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(color.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Text that reads on the colour: white, else near-black, else black, the first with a contrast of
 * at least READABLE (black always reaches it where white does not: one of them is above 4.58:1).
 */
export function textOn(color: string): string {
  return ['#ffffff', '#111827'].find((text) => contrast(text, color) >= READABLE) ?? '#000000';
}

/** Light backgrounds the brand's colour is written on as text (links): the page, panels, callouts. */
export const LIGHT_BACKGROUNDS = ['#ffffff', '#f6f7f9', '#f8fafc', '#f3f6ff'];

/** The brand's colour as text on the light backgrounds: itself when it reads there, else darkened just enough. */
export function inkOf(color: string): string {
  const hex = (n: number) => Math.round(n).toString(16).padStart(2, '0');
  const rgb = [0, 1, 2].map((i) => Number.parseInt(color.slice(1 + 2 * i, 3 + 2 * i), 16));
  for (let keep = 1; keep > 0; keep -= 0.02) {
    const ink = `#${rgb.map((c) => hex(c * keep)).join('')}`;
    if (LIGHT_BACKGROUNDS.every((bg) => contrast(ink, bg) >= READABLE)) return ink;
  }
  return '#000000';
}

export function renderPage(page: PageInput): RenderedPage {
  const color = /^#[0-9a-fA-F]{6}$/.test(page.brand.color) ? page.brand.color.toLowerCase() : DEFAULT_COLOR;
  // The brand's colours are the only part of the stylesheet that varies: checked #rrggbb values,
  // the brand's own, the text on it, and the brand as text on white (each at least READABLE).
  const css = `:root{--brand:${color};--on-brand:${textOn(color)};--brand-ink:${inkOf(color)}}\n${STYLES}`;
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
