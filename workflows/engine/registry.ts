import { UnknownProcessError } from './errors.js';
import type { AnyProcess, ProcessRef } from './types.js';

/**
 * The process definitions this code knows, by name and version. Pure: the Temporal workflow bundle
 * imports it. `Def` is the union of the definitions' types: the engines built on a registry take
 * only its processes' names, each with its own input (see `ProcessStarter`), and ask for the
 * activities they all call (`ActivitiesOf<Def>`).
 */
export class ProcessRegistry<Def extends AnyProcess = AnyProcess> {
  private readonly byName = new Map<string, AnyProcess[]>();

  /** Carries `Def` in the registry's type, too. */
  constructor(readonly definitions: readonly Def[]) {
    for (const def of definitions) {
      const versions = this.byName.get(def.name) ?? [];
      if (versions.some((v) => v.version === def.version)) throw new Error(`process ${def.name} v${def.version} is registered twice`);
      this.byName.set(
        def.name,
        [...versions, def].sort((a, b) => a.version - b.version),
      );
    }
  }

  /** The version new runs start on. */
  latest(process: ProcessRef): AnyProcess {
    const name = typeof process === 'string' ? process : process.name;
    const def = this.byName.get(name)?.at(-1);
    if (!def) throw new UnknownProcessError(name);
    return def;
  }

  /** The version a run began with, if this code still carries it. */
  get(name: string, version: number): AnyProcess | undefined {
    return this.byName.get(name)?.find((d) => d.version === version);
  }
}

/** The union of a registry's definitions: `ProcessesOf<typeof processes>`. */
export type ProcessesOf<R> = R extends ProcessRegistry<infer Def> ? Def : never;
