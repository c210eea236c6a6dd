#!/usr/bin/env node
// npm start: dist/ checked against the sources (scripts/build.mjs, rebuilt in a process of its own
// when they changed), then the server (dist/src/main.js) in this same process: one Node start, not
// two, on the way to a ready server.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { upToDate } from './build.mjs';

if (!(await upToDate())) {
  const built = spawnSync(process.execPath, [fileURLToPath(new URL('./build.mjs', import.meta.url)), '--quiet'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import('../dist/src/main.js');
