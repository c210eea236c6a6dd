import { postOutbound, type PostResult, type TestTrust } from '../../lib/outbound/index.js';
import type { Ctx } from '../context.js';
import { signatureHeader } from './signature.js';

// One signed post, as every webhook post is sent (an endpoint's tries and test ping, a workflow's
// webhook step): the headers of the scheme, through the outbound client; delivered on a 2xx.

export async function postSignedAs(
  url: string,
  signature: string,
  deliveryId: string,
  body: string,
  opts: { testTrust?: TestTrust } = {},
): Promise<{ result: PostResult; delivered: boolean }> {
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'crm-webhooks/1',
    'X-CRM-Delivery': deliveryId,
    'X-CRM-Signature': signature,
  };
  const result = await postOutbound(url, body, headers, { testTrust: opts.testTrust });
  return { result, delivered: result.failure === undefined && result.status >= 200 && result.status < 300 };
}

/** A post to an endpoint: its secret as it is now (a renewed one stops the old at once), signed afresh. */
export const postSigned = (
  ctx: Ctx,
  endpoint: { url: string; secretEnc: string },
  deliveryId: string,
  body: string,
  opts: { testTrust?: TestTrust } = {},
) => postSignedAs(endpoint.url, signatureHeader(ctx.svc.secrets.open(endpoint.secretEnc), body, ctx.clock.now()), deliveryId, body, opts);
