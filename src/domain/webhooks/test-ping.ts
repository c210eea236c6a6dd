import { randomUUID } from 'node:crypto';
import type { TestTrust } from '../../lib/outbound/index.js';
import { transaction, type Ctx } from '../context.js';
import { notFound } from '../errors.js';
import { webhookBody } from './body.js';
import { logTry } from './deliver.js';
import { postSigned } from './post.js';

// "Send test": a ping posted at once, signed like any post, its try in the endpoint's log. Its
// type is `webhook.test` (no endpoint asks for it; every endpoint may be sent one), its data names
// the endpoint, and it is about no one. It counts toward no failure run and is never tried again.

export const TEST_TOPIC = 'webhook.test';

export async function sendTestPing(ctx: Ctx, endpointId: string, opts: { testTrust?: TestTrust } = {}) {
  const endpoint = await ctx.db.webhookEndpoint.findUnique({
    where: { id: endpointId },
    include: { appMode: { select: { appId: true } } },
  });
  if (!endpoint) throw notFound('No such webhook endpoint.');
  const id = `evt_test_${randomUUID().replaceAll('-', '')}`;
  const deliveryId = `dlv_test_${randomUUID().replaceAll('-', '')}`;
  const body = webhookBody({
    id,
    type: TEST_TOPIC,
    createdAt: ctx.clock.now(),
    appId: endpoint.appMode.appId,
    data: { endpoint_id: endpoint.id },
    contact: null,
  });
  const { result, delivered } = await postSigned(ctx, endpoint, deliveryId, body, opts);
  return transaction(ctx, (tx) =>
    logTry(tx, {
      appModeId: endpoint.appModeId,
      endpointId,
      deliveryId,
      topic: TEST_TOPIC,
      attempt: 1,
      delivered,
      result,
      at: tx.clock.now(),
    }),
  );
}
