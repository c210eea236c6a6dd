import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clickLocation, tracked } from './links.js';

// A click leads where the author pointed, whatever the link holds: a property over generated
// addresses with the characters peers broke (brackets, percent escapes, ampersands, fragments,
// non-ASCII letters, spaces).

const AWKWARD = [
  '[',
  ']',
  '%',
  '%41',
  '%zz',
  '&',
  '&amp;',
  '#',
  '?',
  '=',
  'é',
  'ü',
  '日本',
  'ß',
  ' ',
  "'",
  '"',
  '<',
  '>',
  '{',
  '}',
  '|',
  '^',
  '`',
  '+',
  ';',
];

/** A web address with awkward pieces put into its path, query and fragment. */
const awkwardUrl = fc
  .tuple(
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.array(fc.tuple(fc.constantFrom(...AWKWARD), fc.nat()), { maxLength: 6 }),
  )
  .map(([url, pieces]) => {
    const start = url.indexOf('/', url.indexOf('//') + 2);
    if (start < 0) return `${url}/${pieces.map(([p]) => p).join('')}`;
    let out = url;
    for (const [piece, at] of pieces) {
      const i = start + 1 + (at % (out.length - start));
      out = out.slice(0, i) + piece + out.slice(i);
    }
    return out;
  })
  .filter((url) => URL.canParse(url));

describe('tracked links', () => {
  it('leads a click to the address a browser makes of the written link, the written text itself when a header can carry it', () => {
    fc.assert(
      fc.property(awkwardUrl, (link) => {
        expect(tracked(link)).toBe(true);
        const location = clickLocation(link);
        expect(location).toMatch(/^[\x21-\x7e]+$/);
        expect(new URL(location).href).toBe(new URL(link).href);
        if (/^[\x21-\x7e]+$/.test(link)) expect(location).toBe(link);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the examples peers broke as written', () => {
    for (const link of [
      'https://example.com/search?q=[a]&tags[]=x&tags[]=y',
      'https://example.com/%E2%9C%93/done?x=%2F%3F#frag&ment',
      'https://example.com/a?b=1&c=2#/route?x=1',
      'https://example.com/path%20with%20escapes',
    ])
      expect(clickLocation(link)).toBe(link);
    expect(clickLocation('https://example.com/café?q=ü#ß')).toBe('https://example.com/caf%C3%A9?q=%C3%BC#%C3%9F');
    expect(clickLocation('https://example.com/a b')).toBe('https://example.com/a%20b');
  });

  it('tracks http and https addresses only', () => {
    expect(tracked('mailto:help@example.com')).toBe(false);
    expect(tracked('tel:+4930123')).toBe(false);
    expect(tracked('/settings')).toBe(false);
    expect(tracked('javascript:alert(1)')).toBe(false);
    expect(tracked('HTTPS://example.com')).toBe(true);
  });
});
