import { randomUUID } from 'node:crypto';
import type { FieldError } from '../errors.js';
import { linkProblem } from '../help/blocks.js';
import { SLUG } from '../help/names.js';

// The messenger home's cards, in the order staff put them; only published ones are shown. Three
// kinds: `message` (a "send us a message" card: the messenger starts a conversation), `link` (an
// https address, or a path in the product the app's allow-list opens) and `article` (a help
// center article by its slug; not shown while the help center is off).

export const CARD_KINDS = ['message', 'link', 'article'] as const;
export type CardKind = (typeof CARD_KINDS)[number];

export const MAX_CARDS = 10;
export const MAX_CARD_TITLE = 80;
export const MAX_CARD_TEXT = 200;
const CARD_ID = /^[A-Za-z0-9_-]{1,40}$/;

export interface Card {
  id: string;
  kind: CardKind;
  title: string;
  text: string;
  /** `link` cards only. */
  link: string | null;
  /** `article` cards only. */
  articleSlug: string | null;
  published: boolean;
}

export interface CardInput {
  /** Kept when given (1 to 40 letters, digits, _ or -); a new card gets one. */
  id?: string | null;
  kind: CardKind;
  title: string;
  text?: string | null;
  link?: string | null;
  articleSlug?: string | null;
  published: boolean;
}

/** The cards as kept, with every problem found naming `cards.<i>.<member>`. */
export function checkCards(input: CardInput[]): { cards: Card[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });
  if (input.length > MAX_CARDS) fail('cards', `must hold at most ${MAX_CARDS} cards`);
  const ids = new Set<string>();
  const cards = input.map((c, i): Card => {
    const at = `cards.${i}`;
    const id = c.id ?? randomUUID();
    if (!CARD_ID.test(id)) fail(`${at}.id`, 'must be 1 to 40 letters, digits, _ or -');
    else if (ids.has(id)) fail(`${at}.id`, 'another card has this id');
    ids.add(id);
    const title = c.title.trim();
    if (!title || title.length > MAX_CARD_TITLE) fail(`${at}.title`, `must be 1 to ${MAX_CARD_TITLE} characters`);
    const text = (c.text ?? '').trim();
    if (text.length > MAX_CARD_TEXT) fail(`${at}.text`, `must be at most ${MAX_CARD_TEXT} characters`);
    const link = c.kind === 'link' ? (c.link ?? '') : null;
    if (link !== null) {
      const problem = link ? linkProblem(link) : 'a link card needs a link';
      if (problem) fail(`${at}.link`, problem);
    } else if (c.link) fail(`${at}.link`, `a ${c.kind} card has no link`);
    const articleSlug = c.kind === 'article' ? (c.articleSlug ?? '') : null;
    if (articleSlug !== null && !SLUG.test(articleSlug)) fail(`${at}.articleSlug`, "must be an article's slug");
    else if (articleSlug === null && c.articleSlug) fail(`${at}.articleSlug`, `a ${c.kind} card has no article`);
    return { id, kind: c.kind, title, text, link, articleSlug, published: c.published };
  });
  return { cards, errors };
}
