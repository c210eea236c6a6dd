import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The layers of the code, bottom to top, read from its imports (no server, no database). A file may
// import its own layer and the layers below; an import of a layer above, or of a sibling on the
// same floor, is refused with the file and the import named. Type-only imports count like any
// other: a type names what it depends on as much as a call does.
//
// Every .ts file of src/, rest-facade/, workflows/ and scripts/ is read, but for
// - the generated code (src/generated/), which imports only itself and npm packages;
// - tests beside their code (*.test.ts): like test/, a test reaches up to whatever it tests with
//   (workflows/engine/define.test.ts checks the engine against the real processes).
//
// Imports counted: import and export … from (type-only too), import(), import('…').Type, and
// `declare module '…'` (an area adding its member to Caches in src/domain/services.ts).

const root = fileURLToPath(new URL('..', import.meta.url));

interface Layer {
  name: string;
  /** Layers on one floor are siblings: neither imports the other. */
  floor: number;
  /** Folders (ending in /) and files; a file belongs to the layer of its longest matching entry. */
  paths: string[];
  what: string;
}

export const LAYERS: Layer[] = [
  {
    floor: 0,
    name: 'lib',
    paths: ['src/lib/'],
    what: 'knows nothing of the domain: clock, logger, secrets, blobs, push and mail wire formats',
  },
  { floor: 1, name: 'config', paths: ['src/config.ts'], what: "the deployment's settings, read from the environment" },
  {
    floor: 2,
    name: 'db',
    paths: ['src/db/', 'src/generated/prisma/'],
    what: 'the database: client, migrations, embedded PostgreSQL, the outbox dispatcher',
  },
  {
    floor: 3,
    name: 'domain',
    paths: ['src/domain/'],
    what: 'the areas, and what they need from the process declared as interfaces (src/domain/services.ts)',
  },
  { floor: 4, name: 'http', paths: ['src/http/'], what: 'HTTP plumbing both surfaces share: body limit, connections, request log' },
  {
    floor: 4,
    name: 'engine',
    paths: ['workflows/engine/', 'workflows/temporal/definitions.ts'],
    what: 'the durable process engine (embedded or Temporal), knowing no process',
  },
  {
    floor: 5,
    name: 'processes',
    paths: ['workflows/processes/', 'workflows/temporal/'],
    what: 'the durable processes and the Temporal workflows that run them',
  },
  {
    floor: 5,
    name: 'graphql',
    paths: ['src/graphql/', 'src/generated/pothos-types.ts'],
    what: 'the staff GraphQL API',
  },
  { floor: 5, name: 'rest', paths: ['rest-facade/'], what: 'the guest, server and public REST surfaces and the help site' },
  {
    floor: 6,
    name: 'wiring',
    paths: [
      'src/services.ts',
      'src/boot.ts',
      'src/demo.ts',
      'src/demo/',
      'src/server.ts',
      'src/main.ts',
      'src/serve.ts',
      'src/cli/',
      'workflows/temporal/worker.ts',
      'scripts/',
    ],
    what: 'builds the services and starts what runs: server, CLI, Temporal worker, scripts',
  },
];

const READ = ['src/', 'rest-facade/', 'workflows/', 'scripts/'];
const SKIP = ['src/generated/'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIP.includes(`${rel}/`)) out.push(...sourceFiles(`${rel}/`));
    } else if (/\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) out.push(rel);
  }
  return out;
}

/** Every module a file names, with the line it does so on. */
export function importsOf(file: string, text: string): { spec: string; line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { spec: string; line: number }[] = [];
  const add = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node))
      found.push({ spec: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) add(node.name);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The project file a relative import names (`./x.js` is `./x.ts`); undefined for a package. */
function resolve(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const candidate of [joined.replace(/\.js$/, '.ts'), joined.replace(/\.mjs$/, '.mts'), joined])
    if (existsSync(path.join(root, candidate))) return candidate;
  return joined;
}

export function layerOf(file: string): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of LAYERS)
    for (const p of layer.paths)
      if ((p.endsWith('/') ? file.startsWith(p) : file === p) && p.length > (best?.length ?? -1)) best = { layer, length: p.length };
  return best?.layer;
}

export interface Edge {
  from: string;
  to: string;
  spec: string;
  line: number;
}

export function projectImports(): { files: string[]; edges: Edge[] } {
  const files = READ.flatMap(sourceFiles).sort();
  const edges: Edge[] = [];
  for (const from of files)
    for (const { spec, line } of importsOf(from, readFileSync(path.join(root, from), 'utf8'))) {
      const to = resolve(from, spec);
      if (to) edges.push({ from, to, spec, line });
    }
  return { files, edges };
}

/** Where an import goes against the layers: to a floor above, or to a sibling on the same floor. */
export function layerViolations(edges: Edge[]): string[] {
  const out: string[] = [];
  for (const edge of edges) {
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (!from || !to || from === to || to.floor < from.floor) continue;
    const how = to.floor > from.floor ? 'a higher layer' : 'a sibling layer';
    out.push(`${edge.from}:${edge.line} (${from.name}) imports '${edge.spec}' (${to.name}, ${how})`);
  }
  return out;
}

/** The import cycles of a graph (its strongly connected parts of more than one node), each sorted. */
export function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) cycles.push(part.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return cycles;
}

function graphOf(edges: Edge[], unit: (file: string) => string | undefined, skip: (from: string, to: string) => boolean = () => false) {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = unit(from);
    const b = unit(to);
    if (!a || !b || a === b || skip(a, b)) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)!.add(b);
  }
  return graph;
}

/**
 * The domain's units: each area (a folder of src/domain) and each shared file (src/domain/*.ts,
 * such as context.ts, services.ts, outbox.ts, errors.ts).
 */
export function domainUnit(file: string): string | undefined {
  const m = /^src\/domain\/([^/]+)(\/)?/.exec(file);
  if (!m) return undefined;
  return m[2] ? `${m[1]}/` : m[1];
}
const isArea = (unit: string) => unit.endsWith('/');
/**
 * The registries of areas and what reads them, above the areas: they import every area, and no
 * area imports them (so they close no cycle).
 */
const REGISTRIES = new Set(['areas.ts', 'app-access.ts']);

/**
 * Imports between areas that close a cycle, known when this test was written and to be taken out,
 * never added to. Each must still exist (the test says when one is gone, so it leaves this list).
 */
export const KNOWN_AREA_CYCLES: { from: string; to: string; why: string }[] = [
  ...[
    'attachments/',
    'contacts/',
    'conversations/',
    'devices/',
    'email/',
    'events/',
    'help/',
    'inapp/',
    'mail/',
    'notices/',
    'preferences/',
    'push/',
    'surveys/',
    'tickets/',
    'webhooks/',
    'workflows/',
  ].map((to) => ({
    from: 'personal-data/',
    to,
    why: "personal-data/areas.ts lists every area's personal data, and each area's personal-data.ts uses personal-data/registry.ts",
  })),
  { from: 'access/', to: 'apps/', why: 'access reads the shapes of app and server keys in apps/credentials.ts' },
  { from: 'conversations/', to: 'bot/', why: "a conversation's start runs the bot's opening; the bot writes into conversations" },
  { from: 'conversations/', to: 'inbox/', why: "a part added tells the staff inbox's live subscribers (inbox/live.ts)" },
];

describe('layers', () => {
  const { files, edges } = projectImports();

  it('reads the imports of every file', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(edges.length).toBeGreaterThan(1000);
    // The reader sees every kind of import it counts.
    const seen = importsOf(
      'x.ts',
      `import type { A } from './a.js'; export { B } from './b.js'; const c = await import('./c.js');
       let d: import('./d.js').D; declare module './e.js' { interface E { x: 1 } }`,
    ).map((i) => i.spec);
    expect(seen).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.js']);
  });

  it('places every file in a layer', () => {
    expect(files.filter((f) => !layerOf(f))).toEqual([]);
  });

  it('has no import of a layer above, nor of a sibling on the same floor', () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  it('refuses an import of a layer above, naming the file and the import', () => {
    const bad: Edge[] = [
      { from: 'src/db/client.ts', to: 'src/domain/context.ts', spec: '../domain/context.js', line: 3 },
      { from: 'src/graphql/mount.ts', to: 'rest-facade/http/body.ts', spec: '../../rest-facade/http/body.js', line: 4 },
    ];
    expect(layerViolations(bad)).toEqual([
      "src/db/client.ts:3 (db) imports '../domain/context.js' (domain, a higher layer)",
      "src/graphql/mount.ts:4 (graphql) imports '../../rest-facade/http/body.js' (rest, a sibling layer)",
    ]);
  });

  it('has no import cycle between files', () => {
    expect(cyclesOf(graphOf(edges, (f) => f))).toEqual([]);
  });

  it("has the domain's shared files import no area", () => {
    const out = edges
      .filter((e) => {
        const a = domainUnit(e.from);
        const b = domainUnit(e.to);
        return a && b && !isArea(a) && !REGISTRIES.has(a) && isArea(b);
      })
      .map((e) => `${e.from}:${e.line} imports '${e.spec}'`);
    expect(out).toEqual([]);
  });

  it('has no area import a registry of areas', () => {
    const out = edges
      .filter((e) => {
        const a = domainUnit(e.from);
        const b = domainUnit(e.to);
        return a && b && isArea(a) && REGISTRIES.has(b);
      })
      .map((e) => `${e.from}:${e.line} imports '${e.spec}'`);
    expect(out).toEqual([]);
  });

  it('has no import cycle between the areas of the domain but the known ones, each of which still exists', () => {
    const known = new Set(KNOWN_AREA_CYCLES.map((k) => `${k.from} -> ${k.to}`));
    const graph = graphOf(edges, domainUnit);
    const gone = [...known].filter((k) => {
      const [from, to] = k.split(' -> ');
      return !graph.get(from!)?.has(to!);
    });
    expect(gone, 'known cycles no longer there: take them out of KNOWN_AREA_CYCLES').toEqual([]);
    expect(cyclesOf(graphOf(edges, domainUnit, (a, b) => known.has(`${a} -> ${b}`)))).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']]);
  });
});
