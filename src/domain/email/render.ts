import type { MjmlNode } from 'mjml';
import { escapeText, html, textOn, inkOf } from '../../lib/html/index.js';
import { pageColor } from '../../lib/html/colors.js';
import { BlockRenderer, MAX_TRACKED_LINKS, plain, TEXT_COLOUR } from './render-blocks.js';
import type { ContentBlock } from '../help/blocks.js';
import { emailWordsFor } from './words.js';

// An email rendered once per sending, with a place for each person's own addresses: responsive
// HTML made by MJML (the markup mail clients show well: tables, Outlook's conditional comments, a
// single column that fits a phone) and a plain-text alternative. The author's blocks become the
// body (render-blocks.ts); above them the brand (its logo, else its name), below them for topic
// mail a footer saying why the person gets it with the unsubscribe link and the preference
// centre's; transactional mail (no topic) has no footer. The preheader is the hidden preview text
// mail clients show after the subject. Placeholders the sender fills per person (personalise):
// `&crm-link-<i>;` (the i-th link of `links`), `&crm-open;` (the open pixel), `&crm-unsubscribe;`
// and `&crm-preferences;` (topic mail only). In the HTML they stand only where an attribute value
// (href, src) goes; an `&` the author wrote is escaped there, so no text of theirs is one.

export { MAX_TRACKED_LINKS };

export interface RenderInput {
  subject: string;
  preheader: string;
  /** The content blocks as an email message keeps them (src/domain/email/messages.ts checked them). */
  blocks: unknown;
  /** The app-mode's brand, as its pages show it. */
  brand: { name: string; color: string; logoUrl: string | null };
  /** The footer's language (English, German, French or Spanish; English for another). */
  language: string;
  /** The topic of topic mail; null for transactional mail, which has no unsubscribe. */
  topic: { name: string } | null;
}

export interface Rendered {
  html: string;
  text: string;
  /** Each tracked link exactly as written: `&crm-link-<i>;` stands for links[i]. */
  links: string[];
}

/** Fonts every mail client has: MJML links no web font (a request to a font host on every open). */
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif";
const BACKGROUND = '#f4f5f7';
const MUTED = '#5f6b7a';
const LANGUAGE_TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/;
/** After the preheader: blank characters, so a mail client does not fill its preview with the body's first words. */
const PREVIEW_FILL = '&#847;&zwnj;&nbsp;'.repeat(40);

/** The document in MJML's JSON form, the text part and the links: what renderEmail gives MJML. */
export function emailDocument(input: RenderInput): { mjml: MjmlNode; text: string; links: string[] } {
  const brand = pageColor(input.brand.color);
  const blocks = new BlockRenderer({ brand, onBrand: textOn(brand), ink: inkOf(brand) });
  const body = (Array.isArray(input.blocks) ? (input.blocks as ContentBlock[]) : []).map((b) => blocks.block(b));
  const words = emailWordsFor(input.language);
  const logo = input.brand.logoUrl?.startsWith('https://') ? input.brand.logoUrl : null;

  const header: MjmlNode = logo
    ? {
        tagName: 'mj-image',
        attributes: { src: escapeText(logo), alt: escapeText(input.brand.name), width: '140px', align: 'center', padding: '0' },
      }
    : {
        tagName: 'mj-text',
        attributes: { align: 'center', 'font-size': '20px', 'font-weight': '700', padding: '0' },
        content: html`${input.brand.name}`.markup,
      };
  const small = { 'font-size': '13px', 'line-height': '1.5', color: MUTED, align: 'center', padding: '0 0 8px' };
  const footer: MjmlNode[] = input.topic
    ? [
        { tagName: 'mj-text', attributes: small, content: html`${words.why(input.topic.name, input.brand.name)}`.markup },
        {
          tagName: 'mj-text',
          attributes: small,
          content:
            `<a href="&crm-unsubscribe;" style="color:${MUTED};text-decoration:underline;" target="_blank">${escapeText(words.unsubscribe)}</a>` +
            ' &nbsp;·&nbsp; ' +
            `<a href="&crm-preferences;" style="color:${MUTED};text-decoration:underline;" target="_blank">${escapeText(words.preferences)}</a>`,
        },
      ]
    : [];

  const mjml: MjmlNode = {
    tagName: 'mjml',
    attributes: LANGUAGE_TAG.test(input.language) ? { lang: input.language } : {},
    children: [
      {
        tagName: 'mj-head',
        children: [
          { tagName: 'mj-title', content: escapeText(input.subject) },
          ...(input.preheader ? [{ tagName: 'mj-preview', content: escapeText(input.preheader) + PREVIEW_FILL }] : []),
          {
            tagName: 'mj-attributes',
            children: [
              { tagName: 'mj-all', attributes: { 'font-family': FONT } },
              { tagName: 'mj-text', attributes: { 'font-size': '16px', 'line-height': '1.55', color: TEXT_COLOUR, padding: '0 0 16px' } },
            ],
          },
        ],
      },
      {
        tagName: 'mj-body',
        attributes: { 'background-color': BACKGROUND, width: '600px' },
        children: [
          { tagName: 'mj-section', attributes: { padding: '24px 16px 16px' }, children: [{ tagName: 'mj-column', children: [header] }] },
          {
            tagName: 'mj-section',
            attributes: { 'background-color': '#ffffff', padding: '24px 24px 8px', 'border-radius': '8px' },
            children: [{ tagName: 'mj-column', children: body.flatMap((b) => (b.node ? [b.node] : [])) }],
          },
          ...(footer.length
            ? [{ tagName: 'mj-section', attributes: { padding: '16px 24px 24px' }, children: [{ tagName: 'mj-column', children: footer }] }]
            : []),
          {
            tagName: 'mj-raw',
            content: '<img src="&crm-open;" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;">',
          },
        ],
      },
    ],
  };

  const text = [
    ...body.map((b) => b.text).filter((t) => t.trim() !== ''),
    ...(input.topic
      ? [
          `--\n${plain(words.why(input.topic.name, input.brand.name))}\n${plain(words.unsubscribe)}: &crm-unsubscribe;\n` +
            `${plain(words.preferences)}: &crm-preferences;`,
        ]
      : []),
  ].join('\n\n');
  return { mjml, text: `${text}\n`, links: blocks.links };
}

/** The email as HTML and text with a place for each person's addresses, and its links as written. */
export async function renderEmail(input: RenderInput): Promise<Rendered> {
  const { mjml, text, links } = emailDocument(input);
  // Loaded at the first email, not at start: most runs never render one, and MJML is many modules.
  const { default: mjml2html } = await import('mjml');
  // The document is made by the code above, every piece of the author's in an element's content
  // or a pre-escaped attribute; validation would only find a fault of this file (the tests run it strictly).
  const { html } = await mjml2html(mjml, { validationLevel: 'skip', fonts: {}, keepComments: false });
  return { html, text, links };
}

export interface PersonalAddresses {
  /** Each tracked link's address for this person, in the order of `links`. */
  links: string[];
  open: string;
  unsubscribe?: string;
  preferences?: string;
}

const PLACEHOLDER = /&crm-(?:link-(\d+)|(open|unsubscribe|preferences|amp));/g;

/**
 * One person's email from the rendered one: each placeholder replaced by their address (escaped
 * for an attribute in the HTML, as it is in the text). One pass of a regular expression over each
 * part, no rendering: it runs once per person of a sending (about 20 µs for an email of 15 KB).
 */
export function personalise(rendered: { html: string; text: string }, at: PersonalAddresses): { html: string; text: string } {
  const fill = (source: string, escape: (v: string) => string) =>
    source.replace(PLACEHOLDER, (_, link: string | undefined, what: 'open' | 'unsubscribe' | 'preferences' | 'amp' | undefined) =>
      what === 'amp' ? '&' : escape(addressAt(at, link !== undefined ? Number(link) : what!)),
    );
  return { html: fill(rendered.html, escapeText), text: fill(rendered.text, (v) => v) };
}

/** A person's own place in the rendered email: a tracked link's address (by its index), or one of theirs. */
export type Place = number | 'open' | 'unsubscribe' | 'preferences';

/**
 * The rendered email cut at each person's place: `parts` (the escaped ampersand already itself) one
 * more than `places`, so that part 0, place 0's address, part 1, … is what personalise makes.
 */
export function placesOf(source: string): { parts: string[]; places: Place[] } {
  const parts = [''];
  const places: Place[] = [];
  let from = 0;
  for (const m of source.matchAll(PLACEHOLDER)) {
    parts[parts.length - 1] += source.slice(from, m.index);
    from = m.index + m[0].length;
    if (m[2] === 'amp') parts[parts.length - 1] += '&';
    else {
      places.push(m[1] !== undefined ? Number(m[1]) : (m[2] as 'open' | 'unsubscribe' | 'preferences'));
      parts.push('');
    }
  }
  parts[parts.length - 1] += source.slice(from);
  return { parts, places };
}

/** A person's address for a place (empty when they have none there, as personalise writes it). */
export const addressAt = (at: PersonalAddresses, place: Place): string => (typeof place === 'number' ? at.links[place] : at[place]) ?? '';
