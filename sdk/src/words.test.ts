import { describe, expect, it } from 'vitest';
import { optional, readable, word } from './words.js';

describe('reading what a newer service may send', () => {
  it('reads an unknown enumerated word as the fallback', () => {
    const layouts = ['centred', 'image_top', 'image_full'] as const;
    expect(word('image_top', layouts, 'unknown')).toBe('image_top');
    expect(word('split_screen', layouts, 'unknown')).toBe('unknown');
    expect(word(42, layouts, 'centred')).toBe('centred');
  });

  it('leaves out an optional part that cannot be read, keeping the rest', () => {
    const readImage = (v: unknown) => {
      const url = (v as { url?: unknown }).url;
      if (typeof url !== 'string' || !url.startsWith('https:')) throw new Error('no image');
      return { url };
    };
    expect(optional({ url: 'https://x/a.png' }, readImage)).toEqual({ url: 'https://x/a.png' });
    expect(optional({ url: 'ftp://x' }, readImage)).toBeUndefined();
    expect(optional(null, readImage)).toBeUndefined();
    expect(readable([{ url: 'https://a' }, { url: 5 }, { url: 'https://b' }], readImage)).toEqual([
      { url: 'https://a' },
      { url: 'https://b' },
    ]);
    expect(readable('not a list', readImage)).toEqual([]);
  });
});
