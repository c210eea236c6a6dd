import { word } from '../../../sdk/src/index.js';

/** The target that ends a carousel (the spec's carouselEnd). */
export const END = 'end';
/** The first screen ids of a path that receipts carry (MaxReceiptPath). */
export const MAX_RECEIPT_PATH = 100;

export interface PathButton {
  id: string;
  do?: string;
  screen?: string;
  link?: string;
}
export interface PathOption {
  id: string;
  next?: string;
}
export interface PathScreen {
  id: string;
  next?: string;
  buttons?: PathButton[];
  choice?: { options: PathOption[]; multiple?: boolean };
}
export interface PathCarousel {
  screens: PathScreen[];
  start?: string;
}

const known = (c: PathCarousel, target: string | undefined) => target === END || c.screens.some((s) => s.id === target);

/** Where the carousel opens: `start` when it names a screen, else the first. */
export function startOf(c: PathCarousel): string {
  return c.start && known(c, c.start) ? c.start : (c.screens[0]?.id ?? END);
}

/** Where a screen goes on: its `next` when it names a screen or the end, else the following screen, the end after the last. */
export function nextOf(c: PathCarousel, screenId: string): string {
  const at = c.screens.findIndex((s) => s.id === screenId);
  const screen = c.screens[at];
  if (screen?.next && known(c, screen.next)) return screen.next;
  return c.screens[at + 1]?.id ?? END;
}

/** What a tapped button does: close, or go to a screen (its own, else the screen's next); an unknown action goes where the screen's next goes. */
export function afterButton(c: PathCarousel, screenId: string, button: PathButton): { close: true } | { go: string; link?: string } {
  // No action is `next`: go to the button's screen.
  const action = button.do === undefined ? 'next' : word(button.do, ['next', 'link', 'close', 'permission'], 'unknown');
  if (action === 'close') return { close: true };
  if (action === 'unknown') return { go: nextOf(c, screenId) };
  const go = button.screen && known(c, button.screen) ? button.screen : nextOf(c, screenId);
  return action === 'link' && button.link ? { go, link: button.link } : { go };
}

/** Where a single choice goes when an option is tapped: the option's next, else the screen's. */
export function afterOption(c: PathCarousel, screenId: string, option: PathOption): string {
  return option.next && known(c, option.next) ? option.next : nextOf(c, screenId);
}

/** The screens seen, in order (a screen seen twice appears twice), the first MAX_RECEIPT_PATH kept. */
export function pathWith(path: string[], screenId: string): string[] {
  return path.length >= MAX_RECEIPT_PATH ? path : [...path, screenId];
}

/** The progress drawn: dots for one line of at most seven screens, a bar otherwise, or none when asked. */
export function progressOf(c: PathCarousel & { progress?: string }): 'dots' | 'bar' | 'none' {
  const asked = word(c.progress, ['dots', 'bar', 'none'], 'unknown');
  if (asked === 'none' || asked === 'bar') return asked;
  if (asked === 'dots') return 'dots';
  return c.screens.length <= 7 ? 'dots' : 'bar';
}
