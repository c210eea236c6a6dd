import type { MjmlNode } from 'mjml';
import { html, trusted, type Html } from '../../lib/html/index.js';
import { invalidField } from '../errors.js';
import type { ContentBlock, Span } from '../help/blocks.js';
import { tracked } from './links.js';

// An email's content blocks (the help center's, as email messages keep them) as MJML elements for
// the HTML part and as lines of the plain-text part, made in one walk so both parts share each
// link's place. Every absolute http(s) link becomes the placeholder `&crm-link-<i>;`, i being its
// index in `links` in the order the links appear (each appearance its own index, so a click tells
// which of two links to the same address was followed), and `links` keeps it exactly as written.
// The sender puts each person's tracked address in its place (personalise in render.ts). A
// `mailto:` or `tel:` link stays as written, untracked; any other link is left out (its words stay).
// Every piece of the author's text is escaped in the HTML; in the text part an `&crm-` the author
// wrote is written `&crm-amp;crm-`, so it is never taken for a placeholder.

/** Tracked links an email holds at most: one more is refused, naming `blocks`. */
export const MAX_TRACKED_LINKS = 500;

/** Colours the blocks are drawn with: the brand's, the text on it, and the brand as text on white. */
export interface BlockColours {
  brand: string;
  onBrand: string;
  ink: string;
}

export const TEXT_COLOUR = '#1f2933';
const CALLOUT_BACKGROUND = '#f3f6ff';
const HIGHLIGHT = '#fff3bf';
const HEX = /^#[0-9a-fA-F]{6}$/;
const UNTRACKED = /^(mailto|tel):/i;

/** The author's text in the text part: an `&crm-` they wrote cannot be taken for a placeholder. */
export const plain = (text: string): string => text.replaceAll('&crm-', '&crm-amp;crm-');

/** Text as HTML, its line breaks kept. */
const words = (text: string): Html => trusted(html`${text}`.markup.replace(/\r?\n/g, '<br>'));

const tooMany = () =>
  invalidField('blocks', `must hold at most ${MAX_TRACKED_LINKS} links (each link of the email is tracked: write fewer)`);

/** The tracked links of some blocks, counted as the renderer counts them (each appearance). */
export function trackedLinkCount(blocks: ContentBlock[]): number {
  const spans = (list: Span[] | undefined) => (list ?? []).filter((s) => s.link !== undefined && tracked(s.link)).length;
  return blocks.reduce(
    (n, b) =>
      n +
      spans(b.spans) +
      (b.items ?? []).reduce((m, item) => m + spans(item.spans), 0) +
      (b.type === 'link' && b.link !== undefined && tracked(b.link) ? 1 : 0),
    0,
  );
}

export class BlockRenderer {
  /** Each tracked link as written, in the order of its placeholder's index. */
  readonly links: string[] = [];

  constructor(private readonly colours: BlockColours) {}

  /** Where a link leads in both parts (the placeholder of a tracked link), or undefined when it is left out. */
  private place(link: string): { href: Html; text: string } | undefined {
    if (tracked(link)) {
      if (this.links.length >= MAX_TRACKED_LINKS) throw tooMany();
      const placeholder = `&crm-link-${this.links.push(link) - 1};`;
      return { href: trusted(placeholder), text: placeholder };
    }
    if (UNTRACKED.test(link)) return { href: html`${link}`, text: plain(link) };
    return undefined;
  }

  private spanHtml(s: Span): Html {
    let inner = words(s.text);
    if (s.bold) inner = html`<strong>${inner}</strong>`;
    if (s.italic) inner = html`<em>${inner}</em>`;
    if (s.underline) inner = html`<u>${inner}</u>`;
    if (s.strike) inner = html`<s>${inner}</s>`;
    if (s.highlight) inner = html`<mark style="background-color:${HIGHLIGHT};color:inherit;">${inner}</mark>`;
    if (s.color && HEX.test(s.color)) inner = html`<span style="color:${s.color};">${inner}</span>`;
    return inner;
  }

  /** Spans in both parts, links placed in the order they appear. */
  private spans(spans: Span[] | undefined): { html: Html; text: string } {
    const parts = (spans ?? []).map((s) => {
      const inner = this.spanHtml(s);
      const at = s.link === undefined ? undefined : this.place(s.link);
      if (!at) return { html: inner, text: plain(s.text) };
      const text = s.text.trim() === s.link || s.text.trim() === '' ? at.text : `${plain(s.text)} (${at.text})`;
      return {
        html: html`<a href="${at.href}" style="color:${this.colours.ink};text-decoration:underline;" target="_blank">${inner}</a>`,
        text,
      };
    });
    return { html: html`${parts.map((p) => p.html)}`, text: parts.map((p) => p.text).join('') };
  }

  private text(content: Html, attributes: Record<string, string> = {}): MjmlNode {
    return { tagName: 'mj-text', attributes, content: content.markup };
  }

  /** One block: its MJML element (none for a picture that is not https) and its text. */
  block(b: ContentBlock): { node?: MjmlNode; text: string } {
    switch (b.type) {
      case 'heading': {
        const level = b.level === 2 || b.level === 3 ? b.level : 1;
        const size = { 1: 26, 2: 21, 3: 18 }[level];
        const tag = `h${level}`;
        const { html: inner, text } = this.spans(b.spans);
        const underline = level === 3 ? '' : `\n${(level === 1 ? '=' : '-').repeat(Math.min(70, [...text].length))}`;
        return {
          node: this.text(html`<${tag} style="margin:0;font-size:${size}px;line-height:1.3;font-weight:700;">${inner}</${tag}>`, {
            padding: '8px 0 12px',
          }),
          text: `${text}${underline}`,
        };
      }
      case 'paragraph': {
        const { html: inner, text } = this.spans(b.spans);
        return { node: this.text(inner), text };
      }
      case 'callout': {
        const { html: inner, text } = this.spans(b.spans);
        return {
          node: this.text(
            html`<div style="background-color:${CALLOUT_BACKGROUND};border-left:4px solid ${this.colours.brand};padding:12px 16px;border-radius:4px;">${inner}</div>`,
          ),
          text: text
            .split('\n')
            .map((line) => `| ${line}`)
            .join('\n'),
        };
      }
      case 'list':
      case 'numbered_list': {
        const tag = b.type === 'list' ? 'ul' : 'ol';
        const items = (b.items ?? []).map((item) => this.spans(item.spans));
        return {
          node: this.text(
            html`<${tag} style="margin:0;padding:0 0 0 24px;">${items.map((i) => html`<li style="margin:0 0 6px;">${i.html}</li>`)}</${tag}>`,
          ),
          text: items.map((i, n) => `${b.type === 'list' ? '-' : `${n + 1}.`} ${i.text.replace(/\n/g, '\n   ')}`).join('\n'),
        };
      }
      case 'image': {
        // Email messages hold https pictures only (checked when written); anything else is left out.
        if (!b.imageUrl?.startsWith('https://')) return { text: '' };
        return {
          node: {
            tagName: 'mj-image',
            attributes: { src: html`${b.imageUrl}`.markup, alt: html`${b.alt ?? ''}`.markup, padding: '4px 0 20px' },
          },
          text: b.alt ? `[${plain(b.alt)}]` : '',
        };
      }
      case 'link': {
        const label = b.label ?? b.link ?? '';
        const at = b.link === undefined ? undefined : this.place(b.link);
        if (!at) return { node: this.text(html`${label}`), text: plain(label) };
        return {
          node: {
            tagName: 'mj-button',
            attributes: {
              href: at.href.markup,
              'background-color': this.colours.brand,
              color: this.colours.onBrand,
              'font-size': '16px',
              'font-weight': '600',
              'border-radius': '6px',
              'inner-padding': '12px 24px',
              align: 'left',
              padding: '4px 0 20px',
            },
            content: html`${label}`.markup,
          },
          text: `${plain(label)}: ${at.text}`,
        };
      }
      default:
        return { text: '' };
    }
  }
}
