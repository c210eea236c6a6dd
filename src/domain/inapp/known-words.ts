// The enumerated words of the content models that this service knows, member by member
// (Versioning 3). Staff may write any well-formed word: it is kept as written and passed on, so a
// newer app can draw it, while an app (or this service) that does not know it reads it as
// `unknown` and draws or handles the default. `unknownWords` tells staff which words of a
// message's content will be read so.

export const KNOWN_WORDS: Record<string, readonly string[]> = {
  position: ['top', 'bottom'],
  progress: ['dots', 'bar', 'none'],
  presentation: ['sheet', 'full_screen', 'modal'],
  layout: ['centred', 'image_top', 'image_full'],
  align: ['start', 'center', 'end'],
  valign: ['top', 'center', 'bottom'],
  do: ['next', 'link', 'close', 'permission'],
  style: ['primary', 'secondary', 'text'],
  permission: ['push', 'location', 'camera', 'photos', 'contacts', 'tracking'],
  size: ['small', 'medium', 'large', 'full'],
  aspect: ['auto', 'square', 'wide', 'tall'],
  fit: ['cover', 'contain'],
  shape: ['rounded', 'square', 'circle'],
  kind: ['color', 'gradient', 'image'],
  scrim: ['none', 'light', 'dark'],
  corner: ['none', 'small', 'medium', 'large'],
  buttonShape: ['rounded', 'pill', 'square'],
  textScale: ['small', 'medium', 'large'],
  weight: ['regular', 'medium', 'bold'],
  tone: ['info', 'success', 'warning', 'danger'],
  /** How a survey's rating scale is drawn. */
  display: ['numbers', 'stars', 'emoji'],
};

/** A word as this service reads it: itself when known, else `unknown`. */
export const readWord = (member: keyof typeof KNOWN_WORDS, word: string | undefined): string | undefined =>
  word === undefined ? undefined : KNOWN_WORDS[member]?.includes(word) ? word : 'unknown';

/** Paths of the enumerated words in some content that this service does not know (drawn as the default). */
export function unknownWords(content: unknown, path = ''): string[] {
  if (Array.isArray(content)) return content.flatMap((item, i) => unknownWords(item, path ? `${path}.${i}` : String(i)));
  if (typeof content !== 'object' || content === null) return [];
  return Object.entries(content).flatMap(([member, value]) => {
    const at = path ? `${path}.${member}` : member;
    // A word is a string under a member that takes words (`style` is a word on buttons and blocks, an object elsewhere).
    if (typeof value === 'string' && member in KNOWN_WORDS) return KNOWN_WORDS[member]!.includes(value) ? [] : [at];
    return unknownWords(value, at);
  });
}
