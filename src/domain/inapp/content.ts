import { linkProblem, readBlocks, type ContentBlock } from '../help/blocks.js';
import { COMPUTED_ATTRIBUTES, STANDARD_FIELDS } from '../contacts/attributes.js';
import type { FieldError } from '../errors.js';
import { readCarousel, unique, type Button, type Carousel, type Image, type PartReaders, type Style } from './carousel.js';
import { Reader, defined } from './reader.js';
import { readSurvey } from '../surveys/validate.js';
import type { Survey } from '../surveys/model.js';

// A message's content, by its kind, as the app reads it (the same shape staff write): one reader
// per kind in CONTENT_KINDS, so a survey is one more entry. Content blocks are the help center's
// (src/domain/help/blocks.ts): formatting members only in carousels and posts, refused elsewhere
// naming the member; images https; a link an https address or a product path the app declares.

export interface Banner {
  blocks: ContentBlock[];
  /** Opened when the banner is tapped. */
  link?: string;
  position?: string;
  dismissible?: boolean;
}

export interface Post {
  blocks: ContentBlock[];
  image?: Image;
  buttons?: Button[];
  style?: Style;
}

export type Content = Banner | Post | Carousel | Survey;

export interface ContentRules {
  /** The product paths the app-mode's apps declare (links.ts). */
  link: (link: string) => string | undefined;
  /** The type of an attribute the app-mode defines (`reserved` for a field the service keeps): what a survey question may write to. */
  attributeType?: (name: string) => string | undefined;
}

interface KindReader {
  /** Large messages (posts, carousels, surveys) are shown at most one a session. */
  large: boolean;
  read(r: Reader, raw: Record<string, unknown>, path: string, parts: PartReaders): Content | undefined;
}

const MAX_POST_BUTTONS = 3;

export const CONTENT_KINDS = {
  banner: {
    large: false,
    read: (r, raw, path, parts) =>
      defined({
        blocks: nonEmpty(r, parts.blocks(raw.blocks, `${path}.blocks`), `${path}.blocks`),
        link: parts.link(raw.link, `${path}.link`),
        position: r.word(raw.position, `${path}.position`),
        dismissible: r.bool(raw.dismissible, `${path}.dismissible`),
      }),
  },
  post: {
    large: true,
    read: (r, raw, path, parts) =>
      defined({
        blocks: nonEmpty(r, parts.blocks(raw.blocks, `${path}.blocks`), `${path}.blocks`),
        image: parts.image(raw.image, `${path}.image`),
        buttons: parts.buttons(raw.buttons, `${path}.buttons`, MAX_POST_BUTTONS, false),
        style: parts.style(raw.style, `${path}.style`),
      }),
  },
  carousel: { large: true, read: readCarousel },
  survey: { large: true, read: readSurvey },
} satisfies Record<string, KindReader>;

export type Kind = keyof typeof CONTENT_KINDS;
export const isLarge = (kind: Kind) => CONTENT_KINDS[kind].large;

/** Formatting members belong to carousels and posts only. */
const FORMATTED: Record<Kind, boolean> = { banner: false, post: true, carousel: true, survey: true };

/** The content as kept, or every problem found, each named under `path` (`content.screens.3.buttons.0.screen`). */
export function readContent(
  kind: Kind,
  input: unknown,
  rules: ContentRules,
  path: string,
): { content: Content } | { errors: FieldError[] } {
  const r = new Reader();
  const raw = r.object(input, path);
  if (!raw) return { errors: r.errors };
  const content = CONTENT_KINDS[kind].read(r, raw, path, partReaders(r, FORMATTED[kind], rules));
  return r.ok && content ? { content } : { errors: r.errors };
}

function nonEmpty(r: Reader, blocks: ContentBlock[], path: string): ContentBlock[] {
  if (!blocks.length && r.ok) r.fail(path, 'must hold at least one content block');
  return blocks;
}

/** Images and backgrounds: https addresses only. */
const httpsProblem = (url: string) => linkProblem(url) ?? (url.startsWith('/') ? 'must be an https address' : undefined);

function partReaders(r: Reader, formatting: boolean, rules: ContentRules): PartReaders {
  const https = (value: unknown, path: string) => {
    const url = r.text(value, path, 2000);
    if (url === undefined) return undefined;
    const problem = httpsProblem(url);
    return problem ? r.fail(path, problem) : url;
  };
  const link = (value: unknown, path: string) => {
    const url = r.text(value, path, 2000);
    if (url === undefined) return undefined;
    const problem = linkProblem(url) ?? rules.link(url);
    return problem ? r.fail(path, problem) : url;
  };
  const parts: PartReaders = {
    https,
    link,
    attributeType: (name) => (COMPUTED_ATTRIBUTES.has(name) || STANDARD_FIELDS.has(name) ? 'reserved' : rules.attributeType?.(name)),
    blocks(value, path) {
      const imageUrl = (url: string) => {
        const problem = httpsProblem(url);
        return problem ? { problem } : { url };
      };
      const read = readBlocks(value, { formatting, imageUrl, link: rules.link }, path);
      if ('errors' in read) {
        for (const e of read.errors) r.fail(e.field, e.message);
        return [];
      }
      return read.blocks;
    },
    image(value, path) {
      if (value === undefined || value === null) return undefined;
      const i = r.object(value, path);
      if (!i) return undefined;
      return defined({
        url: https(i.url, `${path}.url`) ?? (i.url === undefined ? r.fail(`${path}.url`, 'is required') : undefined) ?? '',
        alt: r.text(i.alt, `${path}.alt`, 500, { blank: true }),
        size: r.word(i.size, `${path}.size`),
        aspect: r.word(i.aspect, `${path}.aspect`),
        fit: r.word(i.fit, `${path}.fit`),
        shape: r.word(i.shape, `${path}.shape`),
      });
    },
    buttons(value, path, max, inCarousel) {
      if (value === undefined || value === null) return undefined;
      const list = r.array(value, path, { max });
      if (!list) return undefined;
      const buttons = list.map((raw, i) => {
        const at = `${path}.${i}`;
        const b = r.object(raw, at);
        if (!b) return { id: '', label: '' };
        return defined({
          id: r.id(b.id, `${at}.id`) ?? '',
          label: r.text(b.label, `${at}.label`, 200, { required: true }) ?? '',
          do: r.word(b.do, `${at}.do`),
          style: r.word(b.style, `${at}.style`),
          screen: inCarousel && b.screen !== undefined && b.screen !== null && b.screen !== '' ? r.id(b.screen, `${at}.screen`) : undefined,
          link: link(b.link, `${at}.link`),
          permission: inCarousel ? r.word(b.permission, `${at}.permission`) : undefined,
        });
      });
      unique(r, buttons, path);
      return buttons;
    },
    style(value, path) {
      if (value === undefined || value === null) return undefined;
      const s = r.object(value, path);
      if (!s) return undefined;
      return defined({
        accent: r.colour(s.accent, `${path}.accent`),
        corner: r.word(s.corner, `${path}.corner`),
        buttonShape: r.word(s.buttonShape, `${path}.buttonShape`),
        textScale: r.word(s.textScale, `${path}.textScale`),
      });
    },
  };
  return parts;
}
