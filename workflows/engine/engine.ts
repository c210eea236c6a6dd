import type { Services } from '../../src/domain/context.js';
import type { Activities } from './activities.js';
import { EmbeddedEngine, type EmbeddedEngineOptions } from './embedded.js';
import type { ProcessRegistry } from './registry.js';
import { TemporalEngine } from './temporal-client.js';
import type { RunDescription } from './types.js';

/** What the service sees of durable processes, whichever engine runs them. */
export interface DurableEngine {
  /** Starts a run on the process's latest version. Idempotent by run id: an existing run is left as it is. */
  start(process: string, runId: string, input: unknown): Promise<string>;
  /** Queued for the run's next wait that listens for this name. Throws RunNotFoundError when no running run has the id. */
  signal(runId: string, name: string, payload?: unknown): Promise<void>;
  /** The run's decide function hears `cancelled` and answers it (an ended run: nothing happens). */
  cancel(runId: string): Promise<void>;
  describe(runId: string): Promise<RunDescription | null>;
  close(): Promise<void>;
}

/** Temporal when TEMPORAL_ADDRESS is set (its workers run the activities), else the embedded engine, advancing runs in this process. */
export function createDurableEngine(svc: Services, registry: ProcessRegistry, activities: Activities, opts: EmbeddedEngineOptions = {}): DurableEngine {
  if (svc.config.temporalAddress) return new TemporalEngine(svc.config, registry);
  const engine = new EmbeddedEngine(svc, registry, activities, opts);
  engine.startWorker();
  return engine;
}
