import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The web messenger's budgets (issue: "small and fast"), on the build `npm install` made: the
// snippet's first script at most 15 KB compressed, and everything it loads at most 80 KB.

const dist = fileURLToPath(new URL('../dist/messenger/', import.meta.url));
const KB = 1024;
const gzipped = async (file: string) => gzipSync(await readFile(file)).length;

describe('the messenger’s size', () => {
  it('keeps its first script within 15 KB and all it loads within 80 KB, gzipped', async () => {
    const script = path.join(dist, 'messenger.js');
    const first = await gzipped(script);
    // What it loads: the screens it names (the last build's may be kept beside them for pages that still hold it).
    const named = [...(await readFile(script, 'utf8')).matchAll(/screens-[A-Z0-9]+\.js/g)].map((m) => m[0]);
    expect(named).toHaveLength(1);
    expect(await readdir(path.join(dist, 'assets'))).toContain(named[0]);
    let all = first;
    for (const name of named) all += await gzipped(path.join(dist, 'assets', name));
    console.log(`messenger: first script ${(first / KB).toFixed(1)} KB, all ${(all / KB).toFixed(1)} KB (gzipped)`);
    expect(first).toBeLessThanOrEqual(15 * KB);
    expect(all).toBeLessThanOrEqual(80 * KB);
  });
});
