import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../scripts/generated-files.js';

describe('committed files printed from code', () => {
  it('schema.graphql and rest-facade/openapi.json are up to date (run npm run schema:print)', async () => {
    for (const [file, text] of Object.entries(await generatedFiles())) {
      const committed = await readFile(new URL(`../${file}`, import.meta.url), 'utf8').catch(() => '');
      expect(committed, `${file} is stale: run npm run schema:print`).toBe(text);
    }
  });
});
