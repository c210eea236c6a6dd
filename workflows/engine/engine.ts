import type { Services } from '../../src/domain/context.js';
import { EmbeddedEngine, type EmbeddedEngineOptions } from './embedded.js';
import type { ProcessRegistry } from './registry.js';
import type { ActivitiesOf, AnyProcess, DurableEngine } from './types.js';

/**
 * Temporal when TEMPORAL_ADDRESS is set (its workers run the activities), else the embedded engine,
 * advancing runs in this process. Temporal's client is loaded only then: a server without it starts
 * a fifth of a second sooner.
 */
export async function createDurableEngine<Def extends AnyProcess>(
  svc: Services,
  registry: ProcessRegistry<Def>,
  activities: NoInfer<ActivitiesOf<Def>>,
  opts: EmbeddedEngineOptions = {},
): Promise<DurableEngine<Def>> {
  if (svc.config.temporalAddress) return new (await import('./temporal-client.js')).TemporalEngine(svc.config, registry);
  const engine = new EmbeddedEngine(svc, registry, activities, opts);
  engine.startWorker();
  return engine;
}
