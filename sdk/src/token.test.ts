import { describe, expect, it } from 'vitest';
import { expiryOf, TokenKeeper } from './token.js';

const jwt = (payload: object) => `h.${btoa(JSON.stringify(payload)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`;

describe('TokenKeeper', () => {
  it('fetches the token once for many callers and keeps it while it lasts', async () => {
    let fetched = 0;
    let now = 1_000_000;
    const keeper = new TokenKeeper(
      () => jwt({ sub: 'u', exp: 2_000, n: ++fetched }),
      () => now,
    );
    const [a, b] = await Promise.all([keeper.get(), keeper.get()]);
    expect(a).toBe(b);
    expect(fetched).toBe(1);
    now = 1_900_000; // 100 s before exp: still kept
    expect(await keeper.get()).toBe(a);
    now = 1_975_000; // within the 30 s margin: fetched again
    expect(await keeper.get()).not.toBe(a);
    expect(fetched).toBe(2);
  });

  it('renews a token refused as expired once, however many requests were refused with it', async () => {
    let fetched = 0;
    const keeper = new TokenKeeper(() => jwt({ n: ++fetched }));
    const stale = await keeper.get();
    const renewed = await Promise.all([keeper.renew(stale), keeper.renew(stale), keeper.renew(stale)]);
    expect(new Set(renewed).size).toBe(1);
    expect(renewed[0]).not.toBe(stale);
    expect(fetched).toBe(2);
  });

  it('does not keep a failed fetch, nor an empty token', async () => {
    let calls = 0;
    const keeper = new TokenKeeper(() => (++calls === 1 ? Promise.reject(new Error('offline')) : calls === 2 ? ' ' : 'tok'));
    await expect(keeper.get()).rejects.toThrow('offline');
    await expect(keeper.get()).rejects.toThrow('no token');
    expect(await keeper.get()).toBe('tok');
  });

  it('reads exp, and treats a token it cannot read as lasting (the service decides)', () => {
    expect(expiryOf(jwt({ exp: 1700000000 }))).toBe(1700000000_000);
    expect(expiryOf('opaque')).toBe(Infinity);
    expect(expiryOf('a.%%%.c')).toBe(Infinity);
    expect(expiryOf(jwt({ exp: 'soon' }))).toBe(Infinity);
  });
});
