import type { Services } from '../../src/domain/context.js';
import { registerActivities } from '../engine/activities.js';
import { conversationWakeActivities } from './conversation-wake/activities.js';
import { eraseActivities } from './erase/activities.js';
import { pushSendActivities } from './push-send/activities.js';
import { webhookActivities } from './webhook/activities.js';

/** Every process's activities over the service's dependencies; both engines run this set. The
 *  engines take it only if it holds every activity the registry's processes call. */
export const buildActivities = (svc: Services) =>
  registerActivities({
    ...eraseActivities(svc),
    ...conversationWakeActivities(svc),
    ...webhookActivities(svc, { testTrust: svc.config.outboundTestTrust }),
    ...pushSendActivities(svc),
  });
