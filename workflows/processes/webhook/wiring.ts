import { deliveriesFor } from '../../../src/domain/webhooks/enqueue.js';
import { wireProcess } from '../module.js';
import { webhookActivities } from './activities.js';
import { webhookProcess } from './decide.js';

// Rows of webhook topics: one delivery per endpoint that asks for the row, each its own run; the
// batch's endpoints and contacts are read at once (deliveriesFor keeps the webhook topics itself).
export default wireProcess(webhookProcess, {
  activities: (svc) => webhookActivities(svc, { testTrust: svc.config.outboundTestTrust }),
  startsOn: {
    topics: 'all',
    runs: async (ctx, rows) =>
      (await deliveriesFor(ctx, rows)).map(({ id, appModeId, endpointId }) => ({
        runId: id,
        input: { deliveryId: id, appModeId, endpointId },
      })),
  },
});
