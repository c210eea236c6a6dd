import { describe, expect, it } from 'vitest';
import { linkTarget } from './push-link.js';

describe('where a push’s notification leads', () => {
  const site = 'https://shop.example.com';
  it('opens a path of the site, or an https address', () => {
    expect(linkTarget('/orders/7?x=1', site)).toBe('https://shop.example.com/orders/7?x=1');
    expect(linkTarget('https://help.example.org/a', site)).toBe('https://help.example.org/a');
    expect(linkTarget('http://localhost:8080/orders', 'http://localhost:8080')).toBe('http://localhost:8080/orders');
  });

  it('opens the site’s start for no link or one it must not follow', () => {
    for (const link of [null, undefined, '', 'javascript:alert(1)', 'http://other.example.com/x', 'data:text/html,hi', 42])
      expect(linkTarget(link, site)).toBe('https://shop.example.com/');
  });
});
