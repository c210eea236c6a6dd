import type { Services } from '../../src/domain/context.js';
import { registerActivities, type Activities } from '../engine/activities.js';
import { eraseActivities } from './erase/activities.js';
import { pingActivities } from './ping/activities.js';

/** Every process's activities over the service's dependencies; both engines run this set. */
export const buildActivities = (svc: Services): Activities => registerActivities(eraseActivities(svc), pingActivities({ clock: svc.clock }));
