import type { AnyProcess } from '../engine/types.js';
import type { ProcessModule, ProcessWiring } from './module.js';
import { PROCESS_MODULES } from './registry.js';

// The registry's processes with their wiring, loaded once when the service (or the Temporal
// worker) first imports this module. Never imported by workflow code.

export interface WiredProcess<Def extends AnyProcess = AnyProcess> extends ProcessWiring<Def> {
  definition: Def;
}

export const wire = (modules: readonly ProcessModule[]): Promise<WiredProcess[]> =>
  Promise.all(modules.map(async ({ definition, wiring }) => ({ definition, ...(await wiring()).default })));

export const WIRED: readonly WiredProcess[] = await wire(PROCESS_MODULES);
