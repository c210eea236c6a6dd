#!/usr/bin/env node
// npm run build (npm install runs it after `prisma generate`): the TypeScript of src/, rest-facade/
// and workflows/ (tests left out) transpiled file by file into dist/, same layout, ESM, so `npm start`,
// the worker and the `crm` bin run plain JavaScript instead of compiling on every start. No type
// check here (tsc --noEmit does that); no bundling (the imports already name the .js files).
// Plain .mjs so it runs before anything else is installed or built.
//
// Other processes may be running dist/ (or building it) meanwhile: a file is rewritten only when its
// content changed, through a rename, so nobody ever loads half a file.
import { readdir, readFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'dist');
const started = performance.now();

const entryPoints = [];
for (const dir of ['src', 'rest-facade', 'workflows'])
  for (const file of await readdir(path.join(root, dir), { recursive: true }))
    if (file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts')) entryPoints.push(path.join(root, dir, file));

const { outputFiles } = await build({
  entryPoints,
  outbase: root,
  outdir: dist,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  tsconfig: path.join(root, 'tsconfig.json'),
  write: false,
  logLevel: 'warning',
});

let written = 0;
await Promise.all(
  outputFiles.map(async (out) => {
    const old = await readFile(out.path).catch(() => undefined);
    if (old?.equals(out.contents)) return;
    await mkdir(path.dirname(out.path), { recursive: true });
    const tmp = `${out.path}.${process.pid}.tmp`;
    await writeFile(tmp, out.contents);
    await rename(tmp, out.path);
    written++;
  }),
);

// Outputs of deleted sources would otherwise stay importable.
const wanted = new Set(outputFiles.map((o) => o.path));
let removed = 0;
for (const file of await readdir(dist, { recursive: true, withFileTypes: true }))
  if (file.isFile()) {
    const full = path.join(file.parentPath ?? file.path, file.name);
    if (!wanted.has(full) && !full.endsWith('.tmp')) {
      await rm(full, { force: true });
      removed++;
    }
  }

if (!process.argv.includes('--quiet'))
  console.log(
    `build: ${entryPoints.length} files to dist/ (${written} rewritten, ${removed} removed) in ${Math.round(performance.now() - started)} ms`,
  );
