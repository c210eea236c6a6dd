import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script (it runs before anything is installed), without types.
import { messengerAssets } from '../scripts/build.mjs';

// The web messenger's budgets (issue: "small and fast"), on the build `npm install` made: the
// snippet's first script at most 15 KB compressed, and everything it loads at most 80 KB.

const dist = fileURLToPath(new URL('../dist/messenger/', import.meta.url));
const KB = 1024;
const gzipped = async (file: string) => gzipSync(await readFile(file)).length;

describe('the messenger’s size', () => {
  it('keeps its first script within 15 KB and all it loads within 80 KB, gzipped', async () => {
    const first = await gzipped(path.join(dist, 'messenger.js'));
    // What it loads: the screens, the in-app layer and their shared chunk (the last build's may be kept beside them).
    const loads: string[] = await messengerAssets(dist);
    expect(loads.filter((name) => /^(screens|inapp)-/.test(name))).toHaveLength(2);
    let all = first;
    for (const name of loads) all += await gzipped(path.join(dist, 'assets', name));
    console.log(`messenger: first script ${(first / KB).toFixed(1)} KB, all ${(all / KB).toFixed(1)} KB (gzipped)`);
    expect(first).toBeLessThanOrEqual(15 * KB);
    expect(all).toBeLessThanOrEqual(80 * KB);
  });
});
