import { describe, expect, it } from 'vitest';
import {
  afterButton,
  afterOption,
  END,
  MAX_RECEIPT_PATH,
  nextOf,
  pathWith,
  progressOf,
  startOf,
  type PathCarousel,
} from './carousel-path.js';

const c: PathCarousel = {
  screens: [
    {
      id: 'a',
      buttons: [
        { id: 'go', screen: 'c' },
        { id: 'bye', do: 'close' },
        { id: 'new', do: 'teleport', screen: 'c' },
      ],
    },
    { id: 'b', next: 'missing' },
    { id: 'c', next: 'a', choice: { options: [{ id: 'yes', next: END }, { id: 'no' }] } },
  ],
};

describe('a carousel’s path', () => {
  it('opens at start when it names a screen, else the first', () => {
    expect(startOf(c)).toBe('a');
    expect(startOf({ ...c, start: 'b' })).toBe('b');
    expect(startOf({ ...c, start: 'nowhere' })).toBe('a');
  });

  it('goes on to a screen’s next, else the following one, the end after the last', () => {
    expect(nextOf(c, 'a')).toBe('b');
    expect(nextOf(c, 'b')).toBe('c'); // a next naming no screen is the following one
    expect(nextOf(c, 'c')).toBe('a'); // screens may loop
    expect(nextOf({ screens: [{ id: 'x' }] }, 'x')).toBe(END);
  });

  it('follows a button: its screen, close, and an unknown action where the screen’s next goes', () => {
    expect(afterButton(c, 'a', c.screens[0]!.buttons![0]!)).toEqual({ go: 'c' });
    expect(afterButton(c, 'a', c.screens[0]!.buttons![1]!)).toEqual({ close: true });
    expect(afterButton(c, 'a', c.screens[0]!.buttons![2]!)).toEqual({ go: 'b' });
    expect(afterButton(c, 'a', { id: 'l', do: 'link', link: 'https://x.example' })).toEqual({ go: 'b', link: 'https://x.example' });
  });

  it('follows a single choice to its option’s next, else the screen’s', () => {
    expect(afterOption(c, 'c', { id: 'yes', next: END })).toBe(END);
    expect(afterOption(c, 'c', { id: 'no' })).toBe('a');
  });

  it('keeps the first screens of a long path, and picks dots or a bar', () => {
    let path: string[] = [];
    for (let i = 0; i < MAX_RECEIPT_PATH + 5; i++) path = pathWith(path, `s${i}`);
    expect(path).toHaveLength(MAX_RECEIPT_PATH);
    expect(path.at(-1)).toBe(`s${MAX_RECEIPT_PATH - 1}`);
    expect(progressOf(c)).toBe('dots');
    expect(progressOf({ screens: Array.from({ length: 8 }, (_, i) => ({ id: `s${i}` })) })).toBe('bar');
    expect(progressOf({ ...c, progress: 'sparkles' })).toBe('dots');
    expect(progressOf({ ...c, progress: 'none' })).toBe('none');
  });
});
