import { describe, expect, it } from 'vitest';
import { readableOn } from './colors.js';

describe('readableOn', () => {
  it('writes white on dark brands and black on light ones', () => {
    expect(readableOn('#1f6feb')).toBe('#ffffff');
    expect(readableOn('#000000')).toBe('#ffffff');
    expect(readableOn('#ffd400')).toBe('#000000');
    expect(readableOn('#FFFFFF')).toBe('#000000');
    expect(readableOn('not a colour')).toBe('#ffffff');
  });
});
