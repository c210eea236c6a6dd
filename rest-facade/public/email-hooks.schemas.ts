import { z } from 'zod';
import { rfc3339 } from '../http/fields.js';
import { DROP_REASONS } from '../../src/domain/email-in/inbound.js';

const providerId = z.string().min(1).max(200);
const address = z.string().min(3).max(320);

export const EmailHookParams = z.object({
  key: z.string().min(1).max(100).describe('The app key (app_… or app_test_…) whose inbound secret signs the post'),
});

export const EmailEvent = z.strictObject({
  id: providerId.describe("The provider's event id: the same event twice is counted once"),
  kind: z.enum(['bounce', 'complaint', 'delivered']),
  message_id: z.string().min(1).max(1000).describe("The email's Message-ID, with or without its angle brackets"),
  address: z.email({ message: 'must be an email address' }).max(320).describe('The address the event is about'),
  occurred_at: rfc3339,
  hard: z.boolean().optional().describe('A permanent bounce: the address is suppressed. A soft one is counted and suppresses nothing'),
  detail: z.string().max(2000).optional().describe("The provider's words (a bounce's diagnostic)"),
});

export const InboundEmail = z.strictObject({
  id: providerId.describe("The provider's message id: the same message twice is threaded once"),
  from: address.describe('The sender: address@example.com or Name <address@example.com>'),
  to: z.array(address).min(1).max(50).describe("The recipients: a conversation's reply address, or an app's inbox address"),
  received_at: rfc3339,
  subject: z.string().max(2000).optional(),
  text: z
    .string()
    .max(1_000_000)
    .describe('The plain-text body, the quoted earlier email possibly still in it: only the reply itself is kept'),
  in_reply_to: z.string().max(1000).optional().describe('The In-Reply-To header, when the converter sends it'),
  references: z
    .array(z.string().max(1000))
    .max(500)
    .optional()
    .describe("The Message-IDs of the References header, oldest first: any of this service's threads the reply"),
  headers: z
    .record(z.string().max(200), z.string().max(2000))
    .refine((h) => Object.keys(h).length <= 100, 'at most 100 headers')
    .optional()
    .describe('Other headers, by name (Auto-Submitted, X-Autoreply, Precedence…): automatic mail is told apart by them'),
});

export const InboundOutcome = z
  .object({
    outcome: z.enum(['threaded', 'started', 'dropped']).describe('threaded into a conversation, started one, or dropped (see reason)'),
    reason: z.enum(DROP_REASONS).optional().describe('Why it was dropped'),
    conversation_id: z.string().optional(),
    part_id: z.string().optional().describe("The person's message made of the reply"),
    repeat: z.boolean().optional().describe('The same provider id was taken before: this is what it did then'),
  })
  .describe('What became of the email');
