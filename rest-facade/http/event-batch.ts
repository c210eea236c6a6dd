import { z } from 'zod';
import type { IncomingEvent, Rejection, SentBatch } from '../../src/domain/events/ingest.js';

// Batches of events: the batch must be readable as a whole; each event is then kept or refused on
// its own, with its place in the batch and the reason.

export const Rejected = z.object({ index: z.number().int(), id: z.string(), reason: z.string(), detail: z.string() }).meta({ id: 'EventRejected' });

/**
 * The batch for the domain, which says how many it takes: each raw event read by `schema` when
 * asked; those that do not fit are refused with the first bad field.
 */
export function readEvents<T extends z.ZodType>(raw: unknown[], schema: T, toEvent: (e: z.output<T>, index: number) => IncomingEvent): SentBatch {
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
          rejected.push({ index, id, reason: 'invalid', detail: `events.${index}${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}` });
        }
      });
      return { events, rejected };
    },
  };
}
