import { z } from 'zod';
import { MAX_ATTRIBUTE_NAME, MAX_LIST_ITEMS, MAX_STRING_VALUE } from '../../src/domain/contacts/attributes.js';
import { ERASE_STATES } from '../../src/domain/contacts/erasure.js';
import { bcp47, clearable, externalIdParam, ianaZone, rfc3339 } from '../http/fields.js';

// Contacts on the wire, for the customer's backend: identify, erase and export.

const ConsentObject = z
  .object({ offers_by_email: z.boolean().optional(), offers_by_push: z.boolean().optional(), changed_at: rfc3339.optional() })
  .meta({ id: 'ConsentObject' });

const ATTRIBUTE_VALUE = [
  { type: 'string', maxLength: MAX_STRING_VALUE, description: 'text, a date (YYYY-MM-DD) or an RFC 3339 time' },
  { type: 'number' },
  { type: 'boolean' },
  { type: 'array', items: { type: 'string', maxLength: MAX_STRING_VALUE }, maxItems: MAX_LIST_ITEMS },
];

export const Identify = z
  .object({
    display_name: clearable(z.string().max(100, 'must be at most 100 characters')),
    email: clearable(
      z
        .string()
        .max(254)
        .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address'),
    ),
    signed_up_at: clearable(rfc3339),
    language: clearable(bcp47),
    time_zone: clearable(ianaZone),
    provider: clearable(
      z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, 'must be apple, google, password or another word of at most 40 characters'),
    ),
    consent: ConsentObject.optional(),
    // Each value is held to its definition's type by the domain, which names the attribute it refuses.
    attributes: z
      .record(z.string(), z.unknown().meta({ anyOf: [...ATTRIBUTE_VALUE, { type: 'null', description: 'removes the value' }] }))
      .optional()
      .meta({
        description: `Custom attributes by name (letters, digits, _ . -, starting with a letter, at most ${MAX_ATTRIBUTE_NAME} characters)`,
        propertyNames: { pattern: `^[A-Za-z][A-Za-z0-9_.-]{0,${MAX_ATTRIBUTE_NAME - 1}}$` },
      }),
  })
  .meta({ id: 'Identify' });

export const IdentifyAnswer = z.object({ external_id: z.string(), created: z.boolean() }).meta({ id: 'IdentifyAnswer' });
export const ContactParams = z.object({ external_id: externalIdParam });
export const EraseAccepted = z
  .object({
    external_id: z.string(),
    state: z.enum(ERASE_STATES),
    requested_at: z.iso.datetime({ offset: true }),
    blocked_until: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'EraseAccepted' });

const instant = z.iso.datetime({ offset: true });
const notYet = (area: string) =>
  z.array(z.record(z.string(), z.unknown())).describe(`Empty until the ${area} area lands; then its records.`);

/** The spec's ExportContact, every member present (model names are the wire spelling). */
export const ExportContact = z
  .object({
    attributes: z
      .array(z.object({ name: z.string(), value: z.string() }))
      .describe('Contact fields and custom attributes, values as text (lists as JSON).'),
    tags: z.array(z.string()),
    notes: z.array(z.object({ body: z.string(), createdAt: instant })),
    events: z.array(z.object({ name: z.string(), occurredAt: instant, props: z.record(z.string(), z.string()) })).describe('Newest first.'),
    eventsTruncated: z.boolean().describe('Only the newest 1,000 events are present.'),
    conversations: z
      .array(
        z.object({
          id: z.string(),
          state: z.enum(['open', 'closed']),
          createdAt: instant,
          closedAt: instant.nullable(),
          rating: z.object({ value: z.number().int(), remark: z.string().nullable(), ratedAt: instant.nullable() }).nullable(),
          parts: z
            .array(
              z.object({
                id: z.string(),
                seq: z.number().int(),
                kind: z.enum(['message', 'event', 'rating', 'bot']),
                author: z.object({ kind: z.enum(['contact', 'staff', 'bot', 'system']), name: z.string() }),
                text: z.string(),
                attachmentIds: z.array(z.string()),
                button: z.string().optional(),
                event: z.string().optional(),
                createdAt: instant,
              }),
            )
            .describe('The parts the person may see (never a team note), oldest first'),
        }),
      )
      .describe("The person's conversations in this mode, oldest first."),
    tickets: notYet('tickets'),
    articleRatings: notYet('help center'),
    receipts: z.array(
      z.object({
        message: z.string(),
        kind: z.string(),
        variant: z.string(),
        sentAt: instant.nullable(),
        seenAt: instant.nullable(),
        clickedAt: instant.nullable(),
        dismissedAt: instant.nullable(),
        completedAt: instant.nullable(),
      }),
    ),
    surveyResponses: z.array(z.object({ question: z.string(), answer: z.string() })),
    workflows: z.array(
      z.object({
        workflow: z.string().describe("The workflow's name"),
        state: z.enum(['active', 'waiting', 'parked', 'ended']),
        startedAt: instant,
        outcome: z
          .string()
          .nullable()
          .describe("What the run ended with: an end step's outcome, goal, failed, exited or cancelled; null while it runs"),
        endedAt: instant.nullable(),
        step: z.string().describe('The step it is at (an ended run: the step it ended at)'),
        since: instant.describe('Since when it is at that step, in that state'),
        waitsFor: z.string().nullable().describe('The event a waiting run waits for, besides the goal'),
        until: instant.nullable().describe("A waiting run's timer"),
        steps: z
          .array(
            z.object({
              step: z.string(),
              kind: z.string(),
              visit: z.number().int().describe('The visit, from 1: a loop visits a step again'),
              enteredAt: instant,
              leftAt: instant.nullable(),
              outcome: z
                .string()
                .nullable()
                .describe('passed, sent, skipped, failed, yes, no; for a wait waited, event or timeout; null while the run is at it'),
              reason: z.string().nullable().describe('Why a step was skipped or failed: a code (see the workflows documentation)'),
              detail: z.string().nullable().describe("A line more: the receiver's answer, the rule that refused"),
            }),
          )
          .describe('Its newest 100 visits of steps, oldest first: why it went as it did'),
      }),
    ),
    collected: z.array(z.object({ conversationId: z.string(), key: z.string(), value: z.string() })),
    testPhone: z.boolean(),
    testSends: notYet('in-app messages'),
    devices: notYet('push'),
    notices: notYet('notices'),
    subscriptions: notYet('preferences'),
    consentHistory: z
      .array(
        z.object({
          channel: z.enum(['email', 'push']).describe('Offers by email or by push'),
          value: z.boolean().describe('Agreed (true) or not (false)'),
          changedAt: instant.describe(
            "The choice's changed_at, or the service's time when it came without one (always, for a guest choice)",
          ),
          source: z.enum(['guest', 'server']).describe('guest: PUT /guest/v1/consent; server: the consent of Identify'),
          recordedAt: instant.describe('When the service took it'),
        }),
      )
      .describe(
        'Every consent choice that changed the consent (a stale or repeated one changes nothing and is not kept), in the order taken.',
      ),
  })
  .describe(
    'Every member is always present. Members are spelled as the spec gives the model (camelCase, as the link page of the public app details); the request and answer bodies the spec spells in snake_case keep it.',
  )
  .meta({ id: 'ExportContact' });
