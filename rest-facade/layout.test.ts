import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Routes apart from their wire shapes. A route file (guest/, server/, public/ <area>.ts) holds
// route declarations only: its zod schemas are in <area>.schemas.ts beside it (or shapes/ when more
// than one area answers with them), its presenters in presenters/<area>.ts. No route file imports
// another (only routes.ts, the list of them all, imports them); nothing but a route file declares a route.

const here = path.dirname(fileURLToPath(import.meta.url));
const SURFACES = ['guest', 'server', 'public'];

const isRouteFile = (file: string) =>
  SURFACES.some((s) => file.startsWith(`${s}/`)) && !file.endsWith('.schemas.ts') && !file.endsWith('.test.ts');

/** Relative imports of a source, resolved against its own folder (paths from rest-facade/, .ts). */
const importsOf = (file: string, text: string) =>
  [...text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'|\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)].map((m) =>
    path.posix.join(path.posix.dirname(file), (m[1] ?? m[2])!).replace(/\.js$/, '.ts'),
  );

/** What breaks the layout, one line a problem; files by path from rest-facade/. */
export function layoutProblems(files: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const routes = /\bdefineRoute\(/.test(text);
    // routes.ts, the one list of every route, is the only file that imports route files.
    for (const target of file === 'routes.ts' ? [] : importsOf(file, text)) {
      if (isRouteFile(target)) problems.push(`${file} imports the route file ${target}`);
    }
    if (isRouteFile(file)) {
      if (!routes)
        problems.push(`${file} declares no route: a route file holds routes (schemas go in .schemas.ts, presenters in presenters/)`);
      if (/\bfrom\s+'zod'/.test(text)) problems.push(`${file} imports zod: its schemas belong in ${file.replace(/\.ts$/, '.schemas.ts')}`);
      const presenter = /\b(?:function|const|let)\s+(present\w*)/.exec(text);
      if (presenter) problems.push(`${file} declares the presenter ${presenter[1]}: it belongs in presenters/`);
    } else if (routes && file !== 'http/route.ts') {
      problems.push(`${file} declares a route outside a route file`);
    }
  }
  return problems;
}

function sources(dir = here, prefix = ''): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) Object.assign(found, sources(path.join(dir, entry.name), `${rel}/`));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) found[rel] = readFileSync(path.join(dir, entry.name), 'utf8');
  }
  return found;
}

describe('the REST layout', () => {
  it('keeps route files to route declarations, apart from their wire schemas and presenters', () => {
    const files = sources();
    expect(Object.keys(files).filter(isRouteFile).length).toBeGreaterThan(10);
    expect(layoutProblems(files)).toEqual([]);
  });

  it('finds a route file that imports another, holds schemas or presenters, or a route declared elsewhere', () => {
    const route = "import { defineRoute } from '../http/route.js';\nexport const r = defineRoute({});\n";
    expect(
      layoutProblems({
        'guest/a.ts': `${route}import { presentB } from './b.js';\n`,
        'guest/b.ts': `${route}import { z } from 'zod';\nexport const presentB = () => 1;\n`,
        'guest/c.ts': 'export const C = 1;\n',
        'presenters/d.ts': "import { Part } from '../guest/conversations.js';\n",
        'guest/e.schemas.ts': route,
      }),
    ).toEqual([
      'guest/a.ts imports the route file guest/b.ts',
      'guest/b.ts imports zod: its schemas belong in guest/b.schemas.ts',
      'guest/b.ts declares the presenter presentB: it belongs in presenters/',
      'guest/c.ts declares no route: a route file holds routes (schemas go in .schemas.ts, presenters in presenters/)',
      'presenters/d.ts imports the route file guest/conversations.ts',
      'guest/e.schemas.ts declares a route outside a route file',
    ]);
  });
});
