import { html, safeUrl, type Html } from './html.js';

// Content blocks (the spec's ContentBlock) as HTML, for pages and mail: headings, paragraphs of
// spans, lists, pictures, callouts and links. Only http(s) addresses become links; a type this
// does not know is left out, as the spec asks of readers.

export interface SpanLike {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  highlight?: boolean;
  link?: string;
}

export interface BlockLike {
  type: string;
  level?: number;
  spans?: SpanLike[];
  items?: { spans: SpanLike[] }[];
  imageUrl?: string;
  alt?: string;
  label?: string;
  link?: string;
}

export interface BlockOptions {
  /** Heading level 1 becomes this HTML level (a page whose own title is h1 passes 2). */
  firstHeading?: number;
}

const wrap = (on: boolean | undefined, tag: 'strong' | 'em' | 'u' | 's' | 'mark', inner: Html) =>
  on ? html`<${tag}>${inner}</${tag}>` : inner;

/** Spans as inline HTML: bold, italic, underline, strike, highlight, and https links. */
export function renderSpans(spans: SpanLike[] | undefined): Html {
  return html`${(spans ?? []).map((s) => {
    let inner = html`${s.text}`;
    inner = wrap(s.highlight, 'mark', wrap(s.strike, 's', wrap(s.underline, 'u', wrap(s.italic, 'em', wrap(s.bold, 'strong', inner)))));
    const href = s.link?.startsWith('/') ? undefined : safeUrl(s.link);
    return href ? html`<a href="${href}" rel="noopener noreferrer">${inner}</a>` : inner;
  })}`;
}

export function renderBlocks(blocks: BlockLike[], opts: BlockOptions = {}): Html {
  const first = opts.firstHeading ?? 1;
  return html`${blocks.map((b) => {
    switch (b.type) {
      case 'heading': {
        const level = Math.min(6, first + Math.min(2, Math.max(0, (b.level ?? 1) - 1)));
        const tag = `h${level}` as 'h1';
        return html`<${tag}>${renderSpans(b.spans)}</${tag}>`;
      }
      case 'paragraph':
        return html`<p>${renderSpans(b.spans)}</p>`;
      case 'list':
        return html`<ul>${(b.items ?? []).map((i) => html`<li>${renderSpans(i.spans)}</li>`)}</ul>`;
      case 'numbered_list':
        return html`<ol>${(b.items ?? []).map((i) => html`<li>${renderSpans(i.spans)}</li>`)}</ol>`;
      case 'callout':
        return html`<aside class="callout">${renderSpans(b.spans)}</aside>`;
      case 'image': {
        const src = safeUrl(b.imageUrl);
        return src ? html`<figure><img src="${src}" alt="${b.alt ?? ''}" loading="lazy"></figure>` : null;
      }
      case 'link': {
        const href = b.link?.startsWith('/') ? undefined : safeUrl(b.link);
        return href ? html`<p><a class="link-block" href="${href}" rel="noopener noreferrer">${b.label ?? href} →</a></p>` : null;
      }
      default:
        return null;
    }
  })}`;
}

/**
 * The author's heading levels (1 to 3) as the page's outline under its h1: the levels the article
 * uses, in their order, from h2 on, and never more than one below the heading before (an article
 * whose first heading is a level 2 gets an h2, not an h3 after the page's h1). renderBlocks makes
 * level 1 the h2 (firstHeading 2), so the level given it is the outline's level less one.
 */
export function outlined<B extends BlockLike>(blocks: B[]): B[] {
  const used = [...new Set(blocks.flatMap((b) => (b.type === 'heading' ? [b.level ?? 1] : [])))].sort((a, b) => a - b);
  let previous = 1;
  return blocks.map((b) => {
    if (b.type !== 'heading') return b;
    const level = Math.min(2 + used.indexOf(b.level ?? 1), previous + 1);
    previous = level;
    return { ...b, level: level - 1 };
  });
}
