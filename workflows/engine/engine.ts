import type { Services } from '../../src/domain/context.js';
import { EmbeddedEngine, type EmbeddedEngineOptions } from './embedded.js';
import type { ProcessRegistry } from './registry.js';
import { TemporalEngine } from './temporal-client.js';
import type { ActivitiesOf, AnyProcess, ProcessRef, RunDescription, StartInput } from './types.js';

/**
 * Starts the processes `Def` (a registry's definitions) and no other: `start('erase', runId, { requestId })`
 * or `start(eraseProcess, runId, { requestId })`. A name the registry lacks or a wrong input does not compile.
 */
export interface ProcessStarter<Def extends AnyProcess = AnyProcess> {
  /** Starts a run on the process's latest version. Idempotent by run id: an existing run is left as it is. */
  start<Name extends Def['name']>(process: ProcessRef<Name>, runId: string, input: StartInput<Def, Name>): Promise<unknown>;
}

/** What the service sees of durable processes, whichever engine runs them. */
export interface DurableEngine<Def extends AnyProcess = AnyProcess> extends ProcessStarter<Def> {
  /** Starts a run on the process's latest version and answers its id. Idempotent by run id: an existing run is left as it is. */
  start<Name extends Def['name']>(process: ProcessRef<Name>, runId: string, input: StartInput<Def, Name>): Promise<string>;
  /** Queued for the run's next wait that listens for this name. Throws RunNotFoundError when no running run has the id. */
  signal(runId: string, name: string, payload?: unknown): Promise<void>;
  /** The run's decide function hears `cancelled` and answers it (an ended run: nothing happens). */
  cancel(runId: string): Promise<void>;
  describe(runId: string): Promise<RunDescription | null>;
  close(): Promise<void>;
}

/** Temporal when TEMPORAL_ADDRESS is set (its workers run the activities), else the embedded engine, advancing runs in this process. */
export function createDurableEngine<Def extends AnyProcess>(
  svc: Services,
  registry: ProcessRegistry<Def>,
  activities: NoInfer<ActivitiesOf<Def>>,
  opts: EmbeddedEngineOptions = {},
): DurableEngine<Def> {
  if (svc.config.temporalAddress) return new TemporalEngine(svc.config, registry);
  const engine = new EmbeddedEngine(svc, registry, activities, opts);
  engine.startWorker();
  return engine;
}
