import type { Services } from '../context.js';

// The Webhook post body: `id` (evt_…), `type` (the topic), `created_at`, `app_id`, `data` (the
// event's own ids) and `contact` (the person's ids; for contact topics also display_name, email and
// language). Nothing else about the person, and never a secret.

export interface WebhookEvent {
  id: string;
  type: string;
  createdAt: Date;
  appId: string;
  data: Record<string, unknown>;
  contact: Record<string, unknown> | null;
}

export const webhookBody = (e: WebhookEvent): string =>
  JSON.stringify({ id: e.id, type: e.type, created_at: e.createdAt.toISOString(), app_id: e.appId, data: e.data, contact: e.contact });

/** An event's id, the same each time its outbox row is read (so it is posted once per endpoint), and saying nothing of how many there are. */
export const eventIdOf = (svc: Pick<Services, 'secrets'>, outboxRowId: bigint | string) =>
  `evt_${svc.secrets.keyedHash('webhook-event', String(outboxRowId)).slice(0, 24)}`;

/** A delivery's id (X-CRM-Delivery): one per endpoint and event. */
export const deliveryIdOf = (svc: Pick<Services, 'secrets'>, endpointId: string, eventId: string) =>
  `dlv_${svc.secrets.keyedHash('webhook-delivery', `${endpointId}\u0000${eventId}`).slice(0, 24)}`;
