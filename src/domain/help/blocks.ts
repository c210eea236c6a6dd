import { textProblem } from '../../lib/text.js';
import type { FieldError } from '../errors.js';

// The spec's ContentBlock, read from what a writer sent: only the members its `type` names are
// set, and a member the type does not name is refused with its path (`blocks.3.level`). Help
// articles take them without the formatting members (`size` to `style`), which belong to
// carousels and posts: those pass `formatting: true`. Members the spec does not know are dropped.

export const BLOCK_TYPES = ['heading', 'paragraph', 'list', 'numbered_list', 'image', 'callout', 'link'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

/** The formatting members, in the spec's order: carousels and posts only. */
export const FORMATTING_MEMBERS = ['size', 'color', 'align', 'weight', 'tone', 'emoji', 'aspect', 'fit', 'shape', 'style'] as const;
type FormattingMember = (typeof FORMATTING_MEMBERS)[number];

/** The content members of each type (formatting members aside). */
const MEMBERS: Record<BlockType, readonly string[]> = {
  heading: ['level', 'spans'],
  paragraph: ['spans'],
  list: ['items'],
  numbered_list: ['items'],
  image: ['imageUrl', 'alt'],
  callout: ['spans'],
  link: ['label', 'link'],
};
const CONTENT_MEMBERS = ['level', 'spans', 'items', 'imageUrl', 'alt', 'label', 'link'];

export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  highlight?: boolean;
  link?: string;
  color?: string;
}

export interface ContentBlock {
  type: BlockType;
  level?: number;
  spans?: Span[];
  items?: { spans: Span[] }[];
  imageUrl?: string;
  alt?: string;
  label?: string;
  link?: string;
  size?: string;
  color?: string;
  align?: string;
  weight?: string;
  tone?: string;
  emoji?: string;
  aspect?: string;
  fit?: string;
  shape?: string;
  style?: string;
}

export const LIMITS = { blocks: 1000, spans: 500, items: 500, spanText: 20_000, label: 200, alt: 500, link: 2000 } as const;

export interface BlockRules {
  /** Formatting members allowed (carousels and posts); refused naming the member otherwise. */
  formatting: boolean;
  /** Reads an image address, answering what to keep or why it is refused. */
  imageUrl?: (url: string) => { url: string } | { problem: string };
  /** A further check of a link that is an https address or a product path (in-app messages: the app's declared links); the problem, if any. */
  link?: (link: string) => string | undefined;
}

const SPAN_FLAGS = ['bold', 'italic', 'underline', 'strike', 'highlight'] as const;
const COLOUR = /^(#[0-9a-fA-F]{6}|[a-z][a-z0-9_-]{0,39})$/;
const WORD = /^[a-z][a-z0-9_-]{0,39}$/;

/** An https address, or a path in the product (opened only when the app's allow-list names it). */
export function linkProblem(link: string): string | undefined {
  if (link.length > LIMITS.link) return `must be at most ${LIMITS.link} characters`;
  if (/[\s\u0000-\u001f\u007f]/.test(link)) return 'must not contain spaces or control characters';
  if (link.startsWith('/')) return link.startsWith('//') ? 'must be an https address or a path beginning with one /' : undefined;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return 'must be an https address or a path in the product beginning with /';
  }
  if (url.protocol !== 'https:') return 'must be an https address or a path in the product beginning with /';
  if (url.username || url.password) return 'must not carry a user name or password';
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The blocks as kept (unknown members dropped), or every problem found, each naming its path under `field`. */
export function readBlocks(input: unknown, rules: BlockRules, field = 'blocks'): { blocks: ContentBlock[] } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (path: string, message: string) => {
    if (errors.length < 50) errors.push({ field: path, message });
  };
  if (!Array.isArray(input)) return { errors: [{ field, message: 'must be an array of content blocks' }] };
  if (input.length > LIMITS.blocks) return { errors: [{ field, message: `must hold at most ${LIMITS.blocks} blocks` }] };

  const text = (value: unknown, path: string, max: number, required: boolean): string | undefined => {
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string') return void fail(path, 'must be a string');
    const problem = textProblem(value) ?? (value.length > max ? `must be at most ${max} characters` : undefined);
    if (problem) return void fail(path, problem);
    return value;
  };

  const spans = (value: unknown, path: string): Span[] => {
    if (!Array.isArray(value)) return (fail(path, 'must be an array of spans'), []);
    if (value.length > LIMITS.spans) return (fail(path, `must hold at most ${LIMITS.spans} spans`), []);
    if (!value.some((s) => isObject(s) && typeof s.text === 'string' && s.text.trim() !== '')) fail(path, 'must hold some words');
    return value.map((s, i) => {
      const at = `${path}.${i}`;
      if (!isObject(s)) return (fail(at, 'must be a span object with text'), { text: '' });
      const span: Span = { text: text(s.text, `${at}.text`, LIMITS.spanText, true) ?? '' };
      for (const flag of SPAN_FLAGS) {
        if (s[flag] === undefined) continue;
        if (typeof s[flag] !== 'boolean') fail(`${at}.${flag}`, 'must be true or false');
        else if (s[flag]) span[flag] = true;
      }
      if (s.link !== undefined) {
        const link = text(s.link, `${at}.link`, LIMITS.link, true);
        const problem = link === undefined ? undefined : (linkProblem(link) ?? rules.link?.(link));
        if (problem) fail(`${at}.link`, problem);
        else if (link) span.link = link;
      }
      if (s.color !== undefined) {
        if (typeof s.color !== 'string' || !COLOUR.test(s.color)) fail(`${at}.color`, 'must be #rrggbb or a colour token word');
        else span.color = s.color;
      }
      return span;
    });
  };

  const blocks = input.map((raw, i): ContentBlock | undefined => {
    const at = `${field}.${i}`;
    if (!isObject(raw)) return (fail(at, 'must be a content block object'), undefined);
    const type = raw.type;
    if (typeof type !== 'string' || !(BLOCK_TYPES as readonly string[]).includes(type))
      return (fail(`${at}.type`, `must be one of ${BLOCK_TYPES.join(', ')}`), undefined);
    const blockType = type as BlockType;
    const block: ContentBlock = { type: blockType };
    const named = MEMBERS[blockType];
    for (const member of CONTENT_MEMBERS) {
      if (raw[member] !== undefined && !named.includes(member)) fail(`${at}.${member}`, `a ${blockType} block has no ${member}`);
    }
    for (const member of FORMATTING_MEMBERS) {
      if (raw[member] === undefined) continue;
      if (!rules.formatting) fail(`${at}.${member}`, 'formatting members belong to carousels and posts only');
      else formatting(block, member, raw[member], `${at}.${member}`, fail);
    }
    switch (blockType) {
      case 'heading':
        if (raw.level !== 1 && raw.level !== 2 && raw.level !== 3) fail(`${at}.level`, 'must be 1, 2 or 3');
        else block.level = raw.level;
        block.spans = spans(raw.spans, `${at}.spans`);
        break;
      case 'paragraph':
      case 'callout':
        block.spans = spans(raw.spans, `${at}.spans`);
        break;
      case 'list':
      case 'numbered_list': {
        const items = raw.items;
        if (!Array.isArray(items) || items.length === 0) fail(`${at}.items`, 'must be a non-empty array of items, each with spans');
        else if (items.length > LIMITS.items) fail(`${at}.items`, `must hold at most ${LIMITS.items} items`);
        else
          block.items = items.map((item, j) => ({
            spans: isObject(item)
              ? spans(item.spans, `${at}.items.${j}.spans`)
              : (fail(`${at}.items.${j}`, 'must be an item with spans'), []),
          }));
        break;
      }
      case 'image': {
        const url = text(raw.imageUrl, `${at}.imageUrl`, LIMITS.link, true);
        if (url !== undefined) {
          const read = rules.imageUrl ? rules.imageUrl(url) : httpsImage(url);
          if ('problem' in read) fail(`${at}.imageUrl`, read.problem);
          else block.imageUrl = read.url;
        }
        block.alt = text(raw.alt, `${at}.alt`, LIMITS.alt, false) ?? '';
        break;
      }
      case 'link': {
        const label = text(raw.label, `${at}.label`, LIMITS.label, true);
        if (label !== undefined && !label.trim()) fail(`${at}.label`, 'must not be blank');
        else if (label !== undefined) block.label = label;
        const link = text(raw.link, `${at}.link`, LIMITS.link, true);
        const problem = link === undefined ? undefined : (linkProblem(link) ?? rules.link?.(link));
        if (problem) fail(`${at}.link`, problem);
        else if (link !== undefined) block.link = link;
        break;
      }
    }
    return block;
  });
  return errors.length ? { errors } : { blocks: blocks as ContentBlock[] };
}

function httpsImage(url: string): { url: string } | { problem: string } {
  const problem = linkProblem(url);
  return problem || url.startsWith('/') ? { problem: problem ?? 'must be an https address' } : { url };
}

function formatting(
  block: ContentBlock,
  member: FormattingMember,
  value: unknown,
  path: string,
  fail: (path: string, message: string) => void,
) {
  if (typeof value !== 'string') return fail(path, 'must be a string');
  if (member === 'color' ? !COLOUR.test(value) : member === 'emoji' ? value.length > 16 || !value : !WORD.test(value)) {
    return fail(
      path,
      member === 'color' ? 'must be #rrggbb or a colour token word' : member === 'emoji' ? 'must be one emoji' : 'must be a word',
    );
  }
  block[member] = value;
}

/**
 * The words of some blocks as plain text, a line per block or list item: what search and excerpts
 * read. Control characters become spaces (search marks its matches with two of them).
 */
export function plainTextOf(blocks: ContentBlock[]): string {
  const line = (spans: Span[] | undefined) => (spans ?? []).map((s) => s.text).join('');
  return blocks
    .flatMap((b) => (b.items ? b.items.map((item) => line(item.spans)) : [b.spans ? line(b.spans) : (b.label ?? b.alt ?? '')]))
    .filter((l) => l.trim() !== '')
    .join('\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
}
