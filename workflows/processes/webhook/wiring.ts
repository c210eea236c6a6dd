import type { Ctx } from '../../../src/domain/context.js';
import { deliveriesFor } from '../../../src/domain/webhooks/enqueue.js';
import { wireProcess } from '../module.js';
import { webhookActivities } from './activities.js';
import { webhookProcess } from './decide.js';

// Rows of webhook topics: one delivery per endpoint that asks for the row, each its own run; the
// batch's endpoints and contacts are read at once (deliveriesFor keeps the webhook topics itself).
/** Tests only: the waits between tries made short, carried by each run from its start. */
const testWaits = (ctx: Ctx) =>
  ctx.svc.config.webhookTestRetryWaitMs === undefined ? {} : { retryWaitMs: ctx.svc.config.webhookTestRetryWaitMs };

export default wireProcess(webhookProcess, {
  activities: (svc) => webhookActivities(svc, { testTrust: svc.config.outboundTestTrust }),
  startsOn: {
    topics: 'all',
    runs: async (ctx, rows) =>
      (await deliveriesFor(ctx, rows)).map(({ id, appModeId, endpointId }) => ({
        runId: id,
        input: { deliveryId: id, appModeId, endpointId, ...testWaits(ctx) },
      })),
  },
});
