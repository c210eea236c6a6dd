import { z } from 'zod';
import type { IncomingEvent, Rejection, SentBatch } from '../../src/domain/events/ingest.js';
import { MAX_EVENT_NAME } from '../../src/domain/events/names.js';
import { MAX_PROP_KEY, MAX_PROP_VALUE, MAX_PROPS } from '../../src/domain/events/props.js';
import { stringMap } from './fields.js';

// Batches of events: the batch must be readable as a whole; each event is then kept or refused on
// its own, with its place in the batch and the reason.

export const Rejected = z
  .object({
    index: z.number().int().describe('Place of the event in the batch, from 0'),
    id: z.string().describe("The event's id as sent (empty when it had none)"),
    reason: z
      .string()
      .describe(
        'invalid (its shape; detail names the field), invalid_prop (a prop beyond the limits or not readable by its type), too_many_props, unknown_event, server_only_event, erased, and for guest events too_old and in_future; other words may be added',
      ),
    detail: z.string().describe('Human-readable reason'),
  })
  .meta({ id: 'EventRejected' });

/**
 * An event's name as the document gives it. The pattern is checked by the domain, which refuses
 * the event alone (`invalid`) rather than the whole batch.
 */
export const eventName = z
  .string()
  .min(1)
  .max(MAX_EVENT_NAME)
  .meta({
    pattern: '^[A-Za-z0-9][A-Za-z0-9 _.:/-]*$',
    description: `Letters, digits, spaces and _ . : / -, starting with a letter or digit, at most ${MAX_EVENT_NAME} characters`,
  });

/** An event's props: at most MAX_PROPS here; name and value limits held by the domain, event by event (`invalid_prop`). */
export const eventProps = stringMap
  .refine((p) => Object.keys(p).length <= MAX_PROPS, `at most ${MAX_PROPS} props`)
  .meta({
    description: `At most ${MAX_PROPS} props, names 1 to ${MAX_PROP_KEY} characters, values strings of at most ${MAX_PROP_VALUE} characters; each value is read by the type its definition gives the prop (number, bool as true or false, time as RFC 3339, money as a whole number of the smallest currency unit)`,
    maxProperties: MAX_PROPS,
    propertyNames: { type: 'string', minLength: 1, maxLength: MAX_PROP_KEY },
    additionalProperties: { type: 'string', maxLength: MAX_PROP_VALUE },
  });

/** The event schemas that batches describe by reference: the document adds each to its components (openapi.ts). */
export const batchItems = new Set<z.ZodType>();

/**
 * The `events` member of a batch: taken as it comes, so that one bad event is refused alone (by
 * readEvents, with `item`) and a batch beyond `max` by the domain (413); the document describes
 * each event by `item`, and the limit.
 */
export function eventsOf(item: z.ZodType, max: number, description: string) {
  const id = z.globalRegistry.get(item)?.id;
  if (!id) throw new Error('an event schema of a batch needs an id');
  batchItems.add(item);
  return z.array(z.unknown().meta({ $ref: `#/components/schemas/${id}` })).meta({ maxItems: max, description });
}

/**
 * The batch for the domain, which says how many it takes: each raw event read by `schema` when
 * asked; those that do not fit are refused with the first bad field.
 */
export function readEvents<T extends z.ZodType>(
  raw: unknown[],
  schema: T,
  toEvent: (e: z.output<T>, index: number) => IncomingEvent,
): SentBatch {
  return {
    size: raw.length,
    read() {
      const events: IncomingEvent[] = [];
      const rejected: Rejection[] = [];
      raw.forEach((item, index) => {
        const r = schema.safeParse(item);
        if (r.success) events.push(toEvent(r.data, index));
        else {
          const issue = r.error.issues[0]!;
          const id = typeof (item as { id?: unknown })?.id === 'string' ? (item as { id: string }).id : '';
          rejected.push({
            index,
            id,
            reason: 'invalid',
            detail: `events.${index}${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`,
          });
        }
      });
      return { events, rejected };
    },
  };
}
