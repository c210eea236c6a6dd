#!/usr/bin/env node
// The `crm` bin (package.json "bin"): the operators' admin CLI, run from any working directory.
// Registers tsx's ESM loader with the project's tsconfig, then loads the TypeScript entry
// relative to this file's own location.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import(new URL('../src/cli/main.ts', import.meta.url).href);
