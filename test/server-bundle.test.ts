import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The server as `npm start` runs it (dist/src/main.js, built by scripts/build.mjs; the global setup
// rebuilt it): one bundle in a few parts, so a start reads and links a handful of modules instead of
// some 1,500, and what it loads only when configured stays out of the start. Read from the files,
// no server started.

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const staticImport = /^import\s(?:[^;"]*?\sfrom\s*)?"([^"]+)";/gm;

/** Every module the start loads before any of its code runs: the entry's static imports, followed. */
function loadedAtStart(entry: string): { files: string[]; packages: Set<string> } {
  const files: string[] = [];
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.includes(file)) return;
    files.push(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(staticImport)) {
      if (spec!.startsWith('.')) visit(path.resolve(path.dirname(file), spec!));
      else if (!spec!.startsWith('node:') && !builtinModules.includes(spec!)) packages.add(spec!);
    }
  };
  visit(entry);
  return { files, packages };
}

const serveChunk = () => {
  const main = readFileSync(path.join(dist, 'src/main.js'), 'utf8');
  const part = /await import\("(\.\.\/server\/serve-[^"]+\.js)"\)/.exec(main);
  expect(part, 'dist/src/main.js loads the rest of the server as one part').not.toBeNull();
  return path.resolve(dist, 'src', part![1]!);
};

describe('the built server', () => {
  it('starts from a handful of modules, with no package loaded only when configured', () => {
    const entry = loadedAtStart(path.join(dist, 'src/main.js'));
    const rest = loadedAtStart(serveChunk());
    const files = new Set([...entry.files, ...rest.files]);
    const packages = [...new Set([...entry.packages, ...rest.packages])].sort();
    // The entry and its parts only (12 when written, 26 once the crm's lazy imports split more parts, 42 with the
    // workflows' steps and triggers: each lazy import shares parts with the start); file by file the start loaded
    // some 500 of dist/ and 1,000 of node_modules/.
    expect(files.size).toBeLessThanOrEqual(50);
    for (const file of files) expect(path.relative(dist, file)).toMatch(/^(src\/main\.js|server\/[\w-]+\.js)$/);
    // Nothing from node_modules by a static import: the embedded PostgreSQL's binaries' paths load only without
    // DATABASE_URL, and the migration engine's glue only with a migration pending, each by a dynamic import.
    expect(packages).toEqual([]);
  });

  it("reads Prisma's query compiler as wasm beside its parts, not as base64 text in them", async () => {
    const wasm = readFileSync(path.join(dist, 'server/query-compiler.wasm'));
    expect(WebAssembly.validate(wasm)).toBe(true);
    const shipped: string = '@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs';
    const { wasm: base64 } = (await import(shipped)) as { wasm: string };
    expect(wasm.equals(Buffer.from(base64, 'base64'))).toBe(true);
    for (const part of readdirSync(path.join(dist, 'server')).filter((f) => f.endsWith('.js')))
      expect(readFileSync(path.join(dist, 'server', part), 'utf8'), part).not.toContain('wasm-base64');
  });
});
