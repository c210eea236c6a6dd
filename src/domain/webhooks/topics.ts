// The spec's webhook topics. Endpoints may ask for any of them; each is emitted (written to the
// outbox, then posted) once its area exists. EMITTED lists those that are today.

export const WEBHOOK_TOPICS = [
  'contact.created',
  'contact.updated',
  'contact.unsubscribed',
  'conversation.started',
  'conversation.replied',
  'conversation.closed',
  'conversation.rated',
  'ticket.created',
  'ticket.changed',
  'message.sent',
  'message.opened',
  'message.clicked',
  'email.bounced',
  'survey.completed',
  'goal.reached',
] as const;

export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

/** The topics the service emits now; the others wait for their areas (email). */
export const EMITTED_TOPICS: readonly WebhookTopic[] = [
  'contact.created',
  'contact.updated',
  'contact.unsubscribed',
  'conversation.started',
  'conversation.replied',
  'conversation.closed',
  'conversation.rated',
  'ticket.created',
  'ticket.changed',
  'message.sent',
  'message.opened',
  'message.clicked',
  // data: { message_id, variant, completed_at, answers: [{ question, number } | { question, options }] }
  // (src/domain/inapp/surveys.ts); the words a person wrote (text answers, Other's words) are not posted.
  'survey.completed',
  'goal.reached',
];

export const isWebhookTopic = (topic: string): topic is WebhookTopic => (WEBHOOK_TOPICS as readonly string[]).includes(topic);
