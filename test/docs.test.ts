import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/config.js';

// The README and docs/ name the project's files as examples and pointers: every one of them must
// exist, every link must stay inside the repository and find its file (and its heading), and the
// README stays short enough to read in five minutes. Pure: reads files, starts nothing.

const README_MAX_LINES = 300;

/** Folders at the repository's root whose paths the documents name. */
const ROOTS = ['src', 'rest-facade', 'workflows', 'test', 'prisma', 'scripts', 'bench', 'docs', '.ci'];
const ROOT_FILES = ['README.md', 'package.json', 'schema.graphql', 'redocly.yaml', 'tsconfig.json', 'vitest.config.ts', 'prisma.config.ts'];
/** Paths the build or the tools make, not committed, yet fine to name. */
const GENERATED = ['src/generated'];

export interface Doc {
  /** Repository-relative path, such as `docs/api.md`. */
  file: string;
  text: string;
}

export function markdownFiles(root: string): Doc[] {
  const found: string[] = ['README.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      const rel = `${dir}/${name}`;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.md')) found.push(rel);
    }
  };
  if (existsSync(path.join(root, 'docs'))) walk('docs');
  return found.map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));
}

/** Code as written: fenced blocks and inline spans, where the documents name files. */
const codeOf = (text: string): string[] => [...text.matchAll(/```[\s\S]*?```|`[^`\n]+`/g)].map((m) => m[0]);

/** Markdown link targets (`[text](target)`), images included. */
const linksOf = (text: string): string[] =>
  [...text.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);

const PATH = new RegExp(`(?<![\\w./@-])((?:${ROOTS.map((r) => r.replace('.', '\\.')).join('|')})/[\\w./@-]*)`, 'g');
const ROOT_FILE = new RegExp(`(?<![\\w./@-])(${ROOT_FILES.map((f) => f.replace(/\./g, '\\.')).join('|')})(?![\\w/-])`, 'g');

/** Repository paths a piece of code names: `src/domain/…`, `rest-facade/…`; placeholders (`<area>`, `*`) end a path there. */
export function pathsIn(code: string): string[] {
  const paths = [...code.matchAll(PATH)].map((m) => m[1]!.replace(/[.:,]+$/, ''));
  return [...paths, ...[...code.matchAll(ROOT_FILE)].map((m) => m[1]!)];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (text: string) =>
  new Set(
    text
      .replace(/```[\s\S]*?```/g, '')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => anchorOf(line.replace(/^#+ /, ''))),
  );

/** Everything wrong with the documents under `root`, one sentence each (none: all is well). */
export function problemsOf(root: string, docs: Doc[]): string[] {
  const problems: string[] = [];
  const exists = (rel: string) => existsSync(path.join(root, rel)) || GENERATED.some((g) => rel === g || rel.startsWith(`${g}/`));
  for (const { file, text } of docs) {
    for (const code of codeOf(text))
      for (const named of pathsIn(code)) if (!exists(named)) problems.push(`${file} names ${named}, which does not exist`);

    if (/\.\.\/shared|shared\/spec|interface-spec\.md/.test(text)) problems.push(`${file} points at a file outside the repository`);

    for (const target of linksOf(text)) {
      if (/^(https?:|mailto:)/i.test(target) || target.startsWith('#')) {
        if (target.startsWith('#') && !anchorsOf(text).has(target.slice(1))) problems.push(`${file} links to ${target}, no such heading`);
        continue;
      }
      const [ref, anchor] = target.split('#') as [string, string | undefined];
      if (/^[a-z][\w+.-]*:/i.test(ref) || path.isAbsolute(ref)) {
        problems.push(`${file} links to ${target}, an absolute address outside the repository`);
        continue;
      }
      const resolved = path.normalize(path.join(path.dirname(file), decodeURIComponent(ref)));
      if (resolved.startsWith('..') || path.isAbsolute(resolved)) {
        problems.push(`${file} links to ${target}, outside the repository`);
        continue;
      }
      if (!exists(resolved)) {
        problems.push(`${file} links to ${target}, which does not exist`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(readFileSync(path.join(root, resolved), 'utf8')).has(anchor))
        problems.push(`${file} links to ${target}, no such heading in ${resolved}`);
    }
  }
  const readme = docs.find((d) => d.file === 'README.md');
  const lines = readme ? readme.text.split('\n').length : 0;
  if (lines > README_MAX_LINES) problems.push(`README.md has ${lines} lines, more than ${README_MAX_LINES}: move the detail to docs/`);
  return problems;
}

describe('the README and docs/', () => {
  const docs = markdownFiles(PROJECT_ROOT);

  it('reads the README and the docs', () => {
    expect(docs.map((d) => d.file)).toContain('README.md');
    expect(docs.filter((d) => d.file.startsWith('docs/areas/')).length).toBeGreaterThan(10);
  });

  it('name only files that exist, link only inside the repository, and keep the README short', () => {
    expect(problemsOf(PROJECT_ROOT, docs)).toEqual([]);
  });

  it('finds the paths, links and lengths that are wrong', () => {
    const bogus: Doc[] = [
      {
        file: 'README.md',
        text: [
          'The tickets live in `src/domain/tickets/tickets.ts` (`openTicket`), see [the spec](../shared/spec/interface-spec.md).',
          '```ts',
          '// workflows/processes/foo/decide.ts',
          '```',
          'Real: `src/domain/tickets/move.ts`, `prisma/schema/*.prisma`, `src/domain/<area>/`, `schema.graphql`.',
          '[Ops](docs/operations.md#no-such-heading), [abs](/etc/passwd), [up](../../x.md), [ok](docs/api.md#rate-limits).',
          ...Array.from({ length: 300 }, () => ''),
        ].join('\n'),
      },
    ];
    expect(problemsOf(PROJECT_ROOT, bogus)).toEqual([
      'README.md names src/domain/tickets/tickets.ts, which does not exist',
      'README.md names workflows/processes/foo/decide.ts, which does not exist',
      'README.md points at a file outside the repository',
      'README.md links to ../shared/spec/interface-spec.md, outside the repository',
      'README.md links to docs/operations.md#no-such-heading, no such heading in docs/operations.md',
      'README.md links to /etc/passwd, an absolute address outside the repository',
      'README.md links to ../../x.md, outside the repository',
      'README.md has 306 lines, more than 300: move the detail to docs/',
    ]);
  });

  it('makes anchors as GitHub does', () => {
    expect(anchorOf("Conversations (the person's side)")).toBe('conversations-the-persons-side');
    expect(anchorOf('Backups of the embedded database')).toBe('backups-of-the-embedded-database');
    expect(anchorOf('`crm` and its `--json`')).toBe('crm-and-its---json');
  });
});
