// An article's blocks as the console edits them: fields a writer types in (words with marks for
// bold, links and the like), turned back into the service's ContentBlocks (heading 1 to 3,
// paragraph, list, numbered_list, image, callout, link; no formatting members). No imports: the
// tests read it as it is.

export const BLOCK_KINDS = ['paragraph', 'heading', 'list', 'numbered_list', 'callout', 'image', 'link'] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];
export const KIND_NAMES: Record<BlockKind, string> = {
  paragraph: 'Paragraph',
  heading: 'Heading',
  list: 'Bulleted list',
  numbered_list: 'Numbered list',
  callout: 'Callout',
  image: 'Picture',
  link: 'Link button',
};

export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  highlight?: boolean;
  link?: string;
}

export interface Block {
  type: string;
  level?: number;
  spans?: Span[];
  items?: { spans: Span[] }[];
  imageUrl?: string;
  alt?: string;
  label?: string;
  link?: string;
}

/** One block as its fields: `text` is a heading's, paragraph's or callout's words, or a list's items a line each. */
export interface EditBlock {
  key: string;
  type: BlockKind;
  level: number;
  text: string;
  imageUrl: string;
  alt: string;
  label: string;
  link: string;
  /** The spans as read, kept while their words are unchanged (bold, links and the like survive an edit elsewhere). */
  spans?: Span[] | undefined;
  items?: Span[][] | undefined;
  /** The block's other members as read (a message's formatting members: size, colour, tone…), given back as they were. */
  rest?: Record<string, unknown> | undefined;
}

export interface Edit {
  title: string;
  summary: string;
  blocks: EditBlock[];
}

let keys = 0;
export const newKey = () => `b${++keys}-${Date.now().toString(36)}`;

export const emptyBlock = (type: BlockKind): EditBlock => ({
  key: newKey(),
  type,
  level: 1,
  text: '',
  imageUrl: '',
  alt: '',
  label: '',
  link: '',
});

export function toEdit(draft: { title: string; summary: string; blocks: unknown } | undefined): Edit {
  const blocks = Array.isArray(draft?.blocks) ? (draft.blocks as Block[]) : [];
  return {
    title: draft?.title ?? '',
    summary: draft?.summary ?? '',
    blocks: blocks.flatMap((b): EditBlock[] => {
      if (!(BLOCK_KINDS as readonly string[]).includes(b.type)) return [];
      const type = b.type as BlockKind;
      const block = emptyBlock(type);
      if (b.items) {
        block.items = b.items.map((i) => i.spans);
        block.text = b.items.map((i) => marksOf(i.spans).replace(/\n/g, ' ')).join('\n');
      } else if (b.spans) {
        block.spans = b.spans;
        block.text = marksOf(b.spans);
      }
      const {
        type: _t,
        level: _l,
        spans: _s,
        items: _i,
        imageUrl: _u,
        alt: _a,
        label: _b,
        link: _k,
        ...rest
      } = b as Block & Record<string, unknown>;
      if (Object.keys(rest).length) block.rest = rest;
      return [{ ...block, level: b.level ?? 1, imageUrl: b.imageUrl ?? '', alt: b.alt ?? '', label: b.label ?? '', link: b.link ?? '' }];
    }),
  };
}

/** Marked-up words as spans: the spans read when the words are unchanged (so nothing of theirs is lost), else as marked. */
function spansOf(text: string, read: Span[] | undefined): Span[] {
  if (read && marksOf(read) === text) return read;
  return parseMarks(text);
}

/** The blocks to save: empty ones (a paragraph not yet written, a picture not yet chosen) are left out until filled. */
export function toBlocks(blocks: EditBlock[]): Block[] {
  return blocks.flatMap((b) => blockOf(b).map((block) => (b.rest ? { ...b.rest, ...block } : block)));
}

function blockOf(b: EditBlock): Block[] {
  switch (b.type) {
    case 'heading':
      return b.text.trim() ? [{ type: 'heading', level: b.level, spans: spansOf(b.text, b.spans) }] : [];
    case 'paragraph':
    case 'callout':
      return b.text.trim() ? [{ type: b.type, spans: spansOf(b.text, b.spans) }] : [];
    case 'list':
    case 'numbered_list': {
      const lines = b.text.split('\n');
      const items = lines.flatMap((line, i) => (line.trim() ? [{ spans: spansOf(line, b.items?.[i]) }] : []));
      return items.length ? [{ type: b.type, items }] : [];
    }
    case 'image':
      return b.imageUrl.trim() ? [{ type: 'image', imageUrl: b.imageUrl.trim(), alt: b.alt }] : [];
    case 'link':
      return b.label.trim() && b.link.trim() ? [{ type: 'link', label: b.label, link: b.link.trim() }] : [];
  }
}

/** What a save sends, as a string: two edits that would save the same compare equal. */
export const payloadOf = (e: Edit) => JSON.stringify({ title: e.title.trim(), summary: e.summary.trim(), blocks: toBlocks(e.blocks) });

// Marks in a block's words, as the writer types them: **bold**, *italic*, __underline__,
// ~~strike~~, ==highlight== and [words](https://address); a backslash keeps the next character as
// it is. A mark without its pair is only a character.

const MARKS = [
  ['**', 'bold'],
  ['__', 'underline'],
  ['~~', 'strike'],
  ['==', 'highlight'],
  ['*', 'italic'],
] as const;
type Mark = (typeof MARKS)[number][1];
type Token = { text: string } | { mark: Mark; raw: string } | { link: string; words: string };

function tokens(source: string): Token[] {
  const out: Token[] = [];
  let text = '';
  const flush = () => (text && out.push({ text }), (text = ''));
  for (let i = 0; i < source.length;) {
    const c = source[i]!;
    if (c === '\\' && i + 1 < source.length) {
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (c === '[') {
      const link = /^\[((?:\\.|[^\]\\])+)\]\(([^()\s]+)\)/.exec(source.slice(i));
      if (link) {
        flush();
        out.push({ link: link[2]!, words: link[1]! });
        i += link[0].length;
        continue;
      }
    }
    const mark = MARKS.find(([m]) => source.startsWith(m, i));
    if (mark) {
      flush();
      out.push({ mark: mark[1], raw: mark[0] });
      i += mark[0].length;
      continue;
    }
    text += c;
    i++;
  }
  flush();
  return out;
}

/** The spans a marked-up line stands for (neighbours of the same look joined). */
export function parseMarks(source: string, base: Omit<Span, 'text'> = {}): Span[] {
  const list = tokens(source);
  // A mark counts only with a pair: the first with the second, the third with the fourth…
  const paired = new Set<number>();
  for (const [, name] of MARKS) {
    const at = list.flatMap((t, i) => ('mark' in t && t.mark === name ? [i] : []));
    at.slice(0, at.length - (at.length % 2)).forEach((i) => paired.add(i));
  }
  const on: Partial<Record<Mark, boolean>> = {};
  const spans: Span[] = [];
  const push = (span: Span) => {
    const last = spans.at(-1);
    const same = (a: Span, b: Span) =>
      (['bold', 'italic', 'underline', 'strike', 'highlight', 'link'] as const).every((k) => (a[k] ?? false) === (b[k] ?? false));
    if (last && same(last, span)) last.text += span.text;
    else if (span.text) spans.push(span);
  };
  const looks = () => Object.fromEntries(Object.entries(on).filter(([, v]) => v)) as Partial<Record<Mark, boolean>>;
  list.forEach((t, i) => {
    if ('mark' in t) {
      if (paired.has(i)) on[t.mark] = !on[t.mark];
      else push({ ...base, ...looks(), text: t.raw });
    } else if ('link' in t) {
      for (const s of parseMarks(t.words, { ...base, ...looks() })) push({ ...s, link: t.link });
    } else push({ ...base, ...looks(), text: t.text });
  });
  return spans.length ? spans : [{ text: '' }];
}

const escape = (text: string) => text.replace(/[\\*[\]]/g, '\\$&').replace(/(__|~~|==)/g, (m) => `\\${m[0]}\\${m[1]}`);

/** Spans as marked-up words (what parseMarks reads back), with backslashes only where they are needed. */
export function marksOf(spans: Span[] | undefined): string {
  const escaped = written(spans, escape);
  const plain = written(spans, (text) => text);
  return plain === escaped || JSON.stringify(parseMarks(plain)) !== JSON.stringify(parseMarks(escaped)) ? escaped : plain;
}

function written(spans: Span[] | undefined, escape: (text: string) => string): string {
  let out = '';
  const runs: Span[][] = [];
  // Neighbouring spans with one link are one [words](link).
  for (const s of spans ?? []) {
    const last = runs.at(-1);
    if (last && s.link && last[0]!.link === s.link) last.push(s);
    else runs.push([s]);
  }
  for (const run of runs) {
    const inner = run
      .map((s) => {
        let text = escape(s.text);
        for (const [m, name] of MARKS) if (s[name] && text) text = `${m}${text}${m}`;
        return text;
      })
      .join('');
    out += run[0]!.link ? `[${inner}](${run[0]!.link})` : inner;
  }
  return out;
}
