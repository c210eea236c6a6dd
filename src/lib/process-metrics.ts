import client from 'prom-client';

// Counters of what this process did outside any request (webhook posts, push sends): counted where
// it happens, whatever started it, and served by /metrics (src/http/observability.ts). One set per
// process, as the process's own counters are; labels are bounded words, never an app or a person.

export const webhookDeliveries = new client.Counter({
  name: 'crm_webhook_deliveries_total',
  help: 'Webhook posts by outcome: delivered (2xx), retry (failed, tried again later) or final (failed, no more tries)',
  labelNames: ['outcome'] as const,
  registers: [],
});

export const pushSends = new client.Counter({
  name: 'crm_push_sends_total',
  help: 'Push notifications tried, by provider (apns, fcm, web) and outcome (sent, gone, retry, failed)',
  labelNames: ['provider', 'outcome'] as const,
  registers: [],
});

export const processCounters = [webhookDeliveries, pushSends];
