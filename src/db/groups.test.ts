import { describe, expect, it } from 'vitest';
import { WriteGroups } from './groups.js';

// Group commit's rules, without a database: alone while few are in flight, together meanwhile (no
// two of one key in a group), each alone when a group fails, each refused when its connection was cut.

type Call = { how: 'alone' | 'together'; items: string[] };

function groupsFor(together: (items: string[]) => Promise<string[]> = async (items) => items.map((i) => `${i}!`)) {
  const calls: Call[] = [];
  const held: (() => void)[] = [];
  let alones = 0;
  const groups = new WriteGroups<string, string>({
    max: 3,
    inFlight: 2,
    key: (item) => item.split('-')[0]!,
    alone: (item) => {
      calls.push({ how: 'alone', items: [item] });
      // The first two are held, as writes waiting on their commit.
      return ++alones <= 2 ? new Promise((resolve) => held.push(() => resolve(`${item}!`))) : Promise.resolve(`${item}!`);
    },
    together: (items) => {
      calls.push({ how: 'together', items });
      return together(items);
    },
  });
  return { groups, calls, release: () => held.splice(0).forEach((go) => go()) };
}

describe('write groups', () => {
  it('writes alone while fewer groups are in flight, and together what came meanwhile, one of a key a group', async () => {
    const { groups, calls, release } = groupsFor();
    const first = [groups.write('a'), groups.write('b')];
    const later = ['c-1', 'd', 'c-2', 'e', 'f'].map((item) => groups.write(item));
    expect(groups.waitingCount).toBe(5);
    release();
    expect(await Promise.all([...first, ...later])).toEqual(['a!', 'b!', 'c-1!', 'd!', 'c-2!', 'e!', 'f!']);
    expect(calls).toEqual([
      { how: 'alone', items: ['a'] },
      { how: 'alone', items: ['b'] },
      { how: 'together', items: ['c-1', 'd', 'e'] },
      { how: 'together', items: ['c-2', 'f'] },
    ]);
    expect(groups.waitingCount).toBe(0);
  });

  it('writes a failed group again one write at a time, each failing or not on its own', async () => {
    const { groups, calls, release } = groupsFor(() => Promise.reject(new Error('deadlock detected')));
    const first = [groups.write('a'), groups.write('b')];
    const later = [groups.write('c'), groups.write('d')];
    release();
    expect(await Promise.all([...first, ...later])).toEqual(['a!', 'b!', 'c!', 'd!']);
    expect(calls.slice(2)).toEqual([
      { how: 'together', items: ['c', 'd'] },
      { how: 'alone', items: ['c'] },
      { how: 'alone', items: ['d'] },
    ]);
  });

  it('refuses each write of a group whose connection was cut (it may have committed), writing none again', async () => {
    const cut = Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
    const { groups, calls, release } = groupsFor(() => Promise.reject(cut));
    const first = [groups.write('a'), groups.write('b')];
    const later = [groups.write('c'), groups.write('d')];
    release();
    await Promise.all(first);
    for (const w of later) await expect(w).rejects.toBe(cut);
    expect(calls.filter((c) => c.how === 'alone').map((c) => c.items[0])).toEqual(['a', 'b']);
  });
});
