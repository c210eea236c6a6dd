import { UnknownProcessError } from './errors.js';
import type { ProcessDefinition } from './types.js';

/** The process definitions this code knows, by name and version. Pure: the Temporal workflow bundle imports it. */
export class ProcessRegistry {
  private readonly byName = new Map<string, ProcessDefinition[]>();

  constructor(definitions: ProcessDefinition[]) {
    for (const def of definitions) {
      const versions = this.byName.get(def.name) ?? [];
      if (versions.some((v) => v.version === def.version)) throw new Error(`process ${def.name} v${def.version} is registered twice`);
      this.byName.set(def.name, [...versions, def].sort((a, b) => a.version - b.version));
    }
  }

  /** The version new runs start on. */
  latest(name: string): ProcessDefinition {
    const def = this.byName.get(name)?.at(-1);
    if (!def) throw new UnknownProcessError(name);
    return def;
  }

  /** The version a run began with, if this code still carries it. */
  get(name: string, version: number): ProcessDefinition | undefined {
    return this.byName.get(name)?.find((d) => d.version === version);
  }
}
