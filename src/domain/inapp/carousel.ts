import type { FieldError } from '../errors.js';
import type { ContentBlock } from '../help/blocks.js';
import { defined, type Reader } from './reader.js';
import { readWord } from './known-words.js';

// The spec's carousel model, read from what staff wrote, and its graph checked: every branch
// target (a button's `screen`, a single-choice option's `next`, a screen's `next`) names a screen
// or `end`, and from every screen reachable from the start the end can be reached. Screens may
// loop. A button whose action (`do`) is `close` leaves without completing; any other action, an
// unknown one too, goes on to the button's `screen`, or where the screen's `next` goes.

export const MAX_SCREENS = 50;
export const MAX_BUTTONS = 3;
export const MIN_OPTIONS = 2;
/** Options of one choice: also the most answers one `answered` receipt may carry (MaxCarouselOptions). */
export const MAX_CAROUSEL_OPTIONS = 8;
/** The branch target that ends the carousel (the spec's carouselEnd). */
export const CAROUSEL_END = 'end';

export interface Image {
  url: string;
  alt?: string;
  size?: string;
  aspect?: string;
  fit?: string;
  shape?: string;
}

export interface Background {
  kind?: string;
  color?: string;
  color2?: string;
  angle?: number;
  imageUrl?: string;
  scrim?: string;
}

export interface Style {
  accent?: string;
  corner?: string;
  buttonShape?: string;
  textScale?: string;
}

export interface Button {
  id: string;
  label: string;
  /** The action (model name `action`). */
  do?: string;
  style?: string;
  screen?: string;
  link?: string;
  permission?: string;
}

export interface Option {
  id: string;
  label: string;
  emoji?: string;
  next?: string;
}

export interface Screen {
  id: string;
  blocks: ContentBlock[];
  layout?: string;
  image?: Image;
  align?: string;
  valign?: string;
  background?: Background;
  buttons?: Button[];
  choice?: { options: Option[]; multiple?: boolean };
  next?: string;
  style?: Style;
}

export interface Carousel {
  screens: Screen[];
  start?: string;
  progress?: string;
  skip?: boolean;
  presentation?: string;
  locked?: boolean;
  style?: Style;
}

/** What the carousel reader needs from content.ts: blocks, images and links read by the message's rules. */
export interface PartReaders {
  blocks(value: unknown, path: string): ContentBlock[];
  image(value: unknown, path: string): Image | undefined;
  https(value: unknown, path: string): string | undefined;
  link(value: unknown, path: string): string | undefined;
  buttons(value: unknown, path: string, max: number, inCarousel: boolean): Button[] | undefined;
  style(value: unknown, path: string): Style | undefined;
  /** The type of an attribute the app-mode defines (`reserved` for a field the service keeps): what a survey question may write to. */
  attributeType?(name: string): string | undefined;
}

export function readCarousel(r: Reader, raw: Record<string, unknown>, path: string, parts: PartReaders): Carousel | undefined {
  const screensRaw = r.array(raw.screens, `${path}.screens`, { min: 1, max: MAX_SCREENS });
  const screens = (screensRaw ?? []).map((s, i) => readScreen(r, s, `${path}.screens.${i}`, parts));
  const carousel = defined({
    screens: screens.filter((s): s is Screen => s !== undefined),
    start: raw.start === undefined || raw.start === null || raw.start === '' ? undefined : r.id(raw.start, `${path}.start`),
    progress: r.word(raw.progress, `${path}.progress`),
    skip: r.bool(raw.skip, `${path}.skip`),
    presentation: r.word(raw.presentation, `${path}.presentation`),
    locked: r.bool(raw.locked, `${path}.locked`),
    style: parts.style(raw.style, `${path}.style`),
  });
  if (!r.ok || !screensRaw) return undefined;
  for (const e of graphProblems(carousel, path)) r.fail(e.field, e.message);
  return r.ok ? carousel : undefined;
}

function readScreen(r: Reader, raw: unknown, path: string, parts: PartReaders): Screen | undefined {
  const s = r.object(raw, path);
  if (!s) return undefined;
  const choice = s.choice === undefined || s.choice === null ? undefined : r.object(s.choice, `${path}.choice`);
  return defined({
    id: r.id(s.id, `${path}.id`) ?? '',
    blocks: s.blocks === undefined ? [] : parts.blocks(s.blocks, `${path}.blocks`),
    layout: r.word(s.layout, `${path}.layout`),
    image: parts.image(s.image, `${path}.image`),
    align: r.word(s.align, `${path}.align`),
    valign: r.word(s.valign, `${path}.valign`),
    background: readBackground(r, s.background, `${path}.background`, parts),
    buttons: parts.buttons(s.buttons, `${path}.buttons`, MAX_BUTTONS, true),
    choice: choice && readChoice(r, choice, `${path}.choice`),
    next: target(r, s.next, `${path}.next`),
    style: parts.style(s.style, `${path}.style`),
  });
}

function readChoice(r: Reader, raw: Record<string, unknown>, path: string): Screen['choice'] {
  const options = (r.array(raw.options, `${path}.options`, { min: MIN_OPTIONS, max: MAX_CAROUSEL_OPTIONS }) ?? []).map((o, i) => {
    const at = `${path}.options.${i}`;
    const option = r.object(o, at);
    if (!option) return { id: '', label: '' };
    return defined({
      id: r.id(option.id, `${at}.id`) ?? '',
      label: r.text(option.label, `${at}.label`, 200, { required: true }) ?? '',
      emoji: r.text(option.emoji, `${at}.emoji`, 16),
      next: target(r, option.next, `${at}.next`),
    });
  });
  unique(r, options, `${path}.options`);
  return defined({ options, multiple: r.bool(raw.multiple, `${path}.multiple`) });
}

function readBackground(r: Reader, value: unknown, path: string, parts: PartReaders): Background | undefined {
  if (value === undefined || value === null) return undefined;
  const b = r.object(value, path);
  if (!b) return undefined;
  return defined({
    kind: r.word(b.kind, `${path}.kind`),
    color: r.colour(b.color, `${path}.color`),
    color2: r.colour(b.color2, `${path}.color2`),
    angle: r.number(b.angle, `${path}.angle`, -360, 360),
    imageUrl: parts.https(b.imageUrl, `${path}.imageUrl`),
    scrim: r.word(b.scrim, `${path}.scrim`),
  });
}

/** A branch target as written: a screen id, `end`, or empty (left out) for the default. */
export function target(r: Reader, value: unknown, path: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return r.id(value, path);
}

/** Ids repeated among siblings are refused at the second one. */
export function unique(r: Reader, items: { id: string }[], path: string): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (item.id && seen.has(item.id)) r.fail(`${path}.${i}.id`, `repeats the id ${item.id}`);
    seen.add(item.id);
  });
}

/** Where each screen may go, by index (END for the end), and every target that names no screen. */
function graphProblems(c: Carousel, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const END = -1;
  const index = new Map<string, number>();
  c.screens.forEach((s, i) => {
    if (s.id === CAROUSEL_END)
      errors.push({ field: `${path}.screens.${i}.id`, message: `must not be ${CAROUSEL_END}, the target that ends the carousel` });
    else if (index.has(s.id)) errors.push({ field: `${path}.screens.${i}.id`, message: `repeats the screen id ${s.id}` });
    else index.set(s.id, i);
  });
  const to = (name: string, field: string): number | undefined => {
    if (name === CAROUSEL_END) return END;
    const i = index.get(name);
    if (i === undefined) errors.push({ field, message: `names no screen of this carousel (a screen id, or ${CAROUSEL_END})` });
    return i;
  };
  const start = c.start === undefined ? 0 : to(c.start, `${path}.start`);
  const edges = c.screens.map((s, i) => {
    const at = `${path}.screens.${i}`;
    const next = s.next === undefined ? (i + 1 < c.screens.length ? i + 1 : END) : to(s.next, `${at}.next`);
    const out: (number | undefined)[] = [];
    const buttons = s.buttons ?? [];
    buttons.forEach((b, j) => {
      if (readWord('do', b.do) === 'close') return;
      out.push(b.screen === undefined ? next : to(b.screen, `${at}.buttons.${j}.screen`));
    });
    if (s.choice && !s.choice.multiple)
      s.choice.options.forEach((o, j) => out.push(o.next === undefined ? next : to(o.next, `${at}.choice.options.${j}.next`)));
    // Continue after several picks; with no buttons, the default Next (Done at the end).
    if ((s.choice && s.choice.multiple) || (!buttons.length && !s.choice)) out.push(next);
    return out.filter((t): t is number => t !== undefined);
  });
  if (errors.length || start === undefined) return errors;
  if (start === END) return [{ field: `${path}.start`, message: 'must name a screen' }];

  const reachable = new Set<number>([start]);
  for (const queue = [start]; queue.length;)
    for (const t of edges[queue.shift()!]!) if (t !== END && !reachable.has(t)) (reachable.add(t), queue.push(t));
  const ends = new Set<number>();
  for (let grew = true; grew;) {
    grew = false;
    edges.forEach((out, i) => {
      if (!ends.has(i) && out.some((t) => t === END || ends.has(t))) (ends.add(i), (grew = true));
    });
  }
  return [...reachable]
    .filter((i) => !ends.has(i))
    .sort((a, b) => a - b)
    .map((i) => ({
      field: `${path}.screens.${i}`,
      message: `screen ${c.screens[i]!.id} has no way to the end: every way on from it leads back without reaching ${CAROUSEL_END}`,
    }));
}
