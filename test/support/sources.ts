import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** The TypeScript sources of the service (not its tests, not generated code), by path from the repository root. */
export function serviceSources(roots = ['src', 'rest-facade', 'workflows']): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'generated' && entry.name !== 'node_modules') walk(full);
      } else if (/\.(ts|mts)$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) {
        out.push({ path: relative(ROOT, full), text: readFileSync(full, 'utf8') });
      }
    }
  };
  for (const root of roots) walk(join(ROOT, root));
  return out;
}

export const repositoryPath = (...parts: string[]) => join(ROOT, ...parts);
