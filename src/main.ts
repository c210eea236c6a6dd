import v8 from 'node:v8';
import { readConfig } from './config.js';
import { locateDatabase } from './db/connect.js';
import { createLogger } from './lib/logger.js';

// `npm start`, in two steps so the embedded PostgreSQL's start (a process of its own, a few hundred
// ms) overlaps the rest of this one's: its address is known as soon as it is spawned; the server's
// modules then load (src/serve.ts: most of the start's CPU) and its Prisma client and GraphQL schema
// are made while it starts; nothing connects before it accepts connections.
// Prisma's query compiler (3.4 MB of wasm, src/generated/prisma) is compiled by V8's baseline
// compiler only, never again by its optimising one in the background: that second compiling cost
// about 40 MB of resident memory and 250 to 400 ms of CPU around the start, for code that runs
// when a query of a new shape is first planned (Prisma keeps the plans). Measured: no slower
// planning with it (docs/benchmarks.md). Set before anything compiles wasm; JavaScript is untouched.
v8.setFlagsFromString('--liftoff-only');
const config = readConfig();
const log = createLogger(config.logLevel);
let starting!: (url: string) => void;
const address = new Promise<string>((resolve) => (starting = resolve));
const located = locateDatabase(config, { starting });
const url = await Promise.race([address, located.then((l) => l.url)]);
log.debug({ step: 'database starting', ms: Math.round(performance.now()) }, 'starting');
located.then(() => log.debug({ step: 'database accepts connections', ms: Math.round(performance.now()) }, 'starting')).catch(() => {});
const { serve } = await import('./serve.js');
await serve(config, log, url, located);
