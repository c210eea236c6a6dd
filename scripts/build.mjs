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
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'dist');
const started = performance.now();

const entryPoints = [];
for (const dir of ['src', 'rest-facade', 'workflows'])
  for (const file of await readdir(path.join(root, dir), { recursive: true }))
    if (file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts')) entryPoints.push(path.join(root, dir, file));

// What the build is made from, hashed: the sources by name and content, the TypeScript settings, esbuild's version and this
// script. When dist/ was built from the same, nothing is transpiled (npm start then spends a few ms here, not half a second).
const hash = createHash('sha256');
const inputs = [
  ...entryPoints.sort(),
  path.join(root, 'tsconfig.json'),
  path.join(root, 'node_modules/esbuild/package.json'),
  fileURLToPath(import.meta.url),
];
const contents = await Promise.all(inputs.map((file) => readFile(file)));
inputs.forEach((file, i) =>
  hash
    .update(`${path.relative(root, file)}\0`)
    .update(contents[i])
    .update('\0'),
);
const fingerprint = `${hash.digest('hex')}\n`;
const stamp = path.join(dist, '.built-from');
if ((await readFile(stamp, 'utf8').catch(() => '')) === fingerprint) {
  if (!process.argv.includes('--quiet'))
    console.log(`build: dist/ is up to date (${entryPoints.length} files) in ${Math.round(performance.now() - started)} ms`);
  process.exit(0);
}

const { build } = await import('esbuild');
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
    if (!wanted.has(full) && !full.endsWith('.tmp') && full !== stamp) {
      await rm(full, { force: true });
      removed++;
    }
  }

const stampTmp = `${stamp}.${process.pid}.tmp`;
await writeFile(stampTmp, fingerprint);
await rename(stampTmp, stamp);

if (!process.argv.includes('--quiet'))
  console.log(
    `build: ${entryPoints.length} files to dist/ (${written} rewritten, ${removed} removed) in ${Math.round(performance.now() - started)} ms`,
  );
