import { describe, expect, it } from 'vitest';
import { isConnectionLost, isConnectionRefused, throughCuts } from './lost-connection.js';

const cut = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

describe('throughCuts', () => {
  it('does a write again while its connection is cut, telling each try after the first', async () => {
    const told: boolean[] = [];
    const answer = await throughCuts(async (again) => {
      told.push(again);
      if (told.length < 3) throw cut;
      return 'written';
    });
    expect(answer).toBe('written');
    expect(told).toEqual([false, true, true]);
  });

  it('gives up on another error at once, and on a cut when told to stop', async () => {
    let tries = 0;
    await expect(throughCuts(async () => (tries++, Promise.reject(new Error('a unique key'))))).rejects.toThrow('a unique key');
    expect(tries).toBe(1);
    await expect(
      throughCuts(
        async () => Promise.reject(cut),
        () => true,
      ),
    ).rejects.toBe(cut);
    expect(isConnectionLost(cut)).toBe(true);
  });
});

describe('isConnectionRefused', () => {
  it('tells a database that cannot be reached from a connection cut while it answers', () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect([isConnectionLost(terminated), isConnectionRefused(terminated)]).toEqual([true, false]);
    expect([isConnectionLost(refused), isConnectionRefused(refused)]).toEqual([true, true]);
    expect(isConnectionRefused(new Error('wrapped', { cause: refused }))).toBe(true);
  });
});
