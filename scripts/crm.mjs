#!/usr/bin/env node
// The `crm` bin (package.json "bin"): the operators' admin CLI, run from any working directory.
// It runs the JavaScript that `npm run build` (run by `npm install`) wrote into dist/, found from
// this file's own location: compiling the TypeScript on each run cost seconds per command.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  const message = `${new URL('../dist/', import.meta.url).pathname} is missing: run "npm run build" in the project (npm install does it)`;
  // Keep the --json contract even here: one JSON object on stdout, exit 3 (failed).
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ error: { code: 'failed', message } })}\n`);
  else process.stderr.write(`crm: ${message}\n`);
  process.exit(3);
}
await import(entry.href);
