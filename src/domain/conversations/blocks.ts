// A message's words as the spec's content blocks: one paragraph block per run of text between
// blank lines, line breaks inside a paragraph kept. Nothing is interpreted (no markup, no links),
// so what a person typed is shown as typed.

export interface Span {
  text: string;
}

export interface ParagraphBlock {
  type: 'paragraph';
  spans: Span[];
}

export type Block = ParagraphBlock;

export function paragraphs(text: string): ParagraphBlock[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((p) => p.replace(/^\n+|\n+$/g, ''))
    .filter((p) => p.trim() !== '')
    .map((p) => ({ type: 'paragraph', spans: [{ text: p }] }));
}

/** Characters of a conversation's preview (the latest part the person may see). */
export const PREVIEW_CHARS = 140;

/** The first PREVIEW_CHARS characters of the text on one line, cut at a character, not inside one. */
export function previewOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= PREVIEW_CHARS ? line : `${chars.slice(0, PREVIEW_CHARS - 1).join('')}…`;
}
