import type { Services } from '../../src/domain/context.js';
import { registerActivities } from '../engine/activities.js';
import type { ActivitiesOf } from '../engine/types.js';
import type { Processes } from './registry.js';
import { WIRED } from './wired.js';

/**
 * Every process's activities over the service's dependencies; both engines run this set. Each
 * process's wiring is checked to give the activities its own decide module calls, so the set holds
 * every activity the registry's processes call (the engines take no less); a name two processes
 * give is refused.
 */
export const buildActivities = (svc: Services): ActivitiesOf<Processes> =>
  registerActivities(...WIRED.map((p) => p.activities(svc))) as ActivitiesOf<Processes>;
