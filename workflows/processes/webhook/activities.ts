import { systemContext, type Services } from '../../../src/domain/context.js';
import { tryDelivery, type DeliveryOptions, type Tried } from '../../../src/domain/webhooks/deliver.js';
import { mailSwitchOff } from '../../../src/domain/webhooks/switch-off-notice.js';

// Posting is not retried by the engine: each try is logged and counted, so the process decides
// when the next one comes. Mailing the owners is retried like any step (it sends once per key).
export const webhookActivities = (svc: Services, opts: DeliveryOptions = {}, ctx = systemContext(svc, 'webhook')) => ({
  postDelivery: (input: { deliveryId: string; attempt: number }): Promise<Tried> => tryDelivery(ctx, input.deliveryId, input.attempt, opts),
  mailSwitchOff: (input: { endpointId: string; at: string }): Promise<void> => mailSwitchOff(ctx, input.endpointId, input.at),
});

export type WebhookActivities = ReturnType<typeof webhookActivities>;
