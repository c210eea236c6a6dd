import { postOutbound, type PostResult, type TestTrust } from '../../lib/outbound/index.js';
import type { Ctx } from '../context.js';
import { signatureHeader } from './signature.js';

// One signed post to an endpoint, as every try and the test ping send it: the endpoint's secret as
// it is now (a renewed one stops the old at once), signed afresh, through the outbound client.

export async function postSigned(
  ctx: Ctx,
  endpoint: { url: string; secretEnc: string },
  deliveryId: string,
  body: string,
  opts: { testTrust?: TestTrust } = {},
): Promise<{ result: PostResult; delivered: boolean }> {
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'crm-webhooks/1',
    'X-CRM-Delivery': deliveryId,
    'X-CRM-Signature': signatureHeader(ctx.svc.secrets.open(endpoint.secretEnc), body, ctx.clock.now()),
  };
  const result = await postOutbound(endpoint.url, body, headers, { testTrust: opts.testTrust });
  return { result, delivered: result.failure === undefined && result.status >= 200 && result.status < 300 };
}
