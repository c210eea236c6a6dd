// npm run schema:print: writes schema.graphql and rest-facade/openapi.json from the code.
// A test fails when either committed file differs from what the code prints.
import { writeFile } from 'node:fs/promises';
import { generatedFiles } from './generated-files.js';

for (const [file, text] of Object.entries(await generatedFiles())) {
  await writeFile(new URL(`../${file}`, import.meta.url), text);
  console.log(`wrote ${file}`);
}
process.exit(0);
