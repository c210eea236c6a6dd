import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../scripts/generated-files.js';

describe('committed files printed from code', () => {
  it('schema.graphql, rest-facade/openapi.json and the client types are up to date (run npm run schema:print)', async () => {
    for (const [file, text] of Object.entries(await generatedFiles())) {
      const committed = await readFile(new URL(`../${file}`, import.meta.url), 'utf8').catch(() => '');
      expect(committed, `${file} is stale: run npm run schema:print`).toBe(text);
    }
  });
});
