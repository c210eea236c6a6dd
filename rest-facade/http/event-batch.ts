import { z } from 'zod';
import { DomainError } from '../../src/domain/errors.js';
import type { IncomingEvent, Rejection } from '../../src/domain/events/ingest.js';

// Batches of events: the batch must be readable as a whole; each event is then kept or refused on
// its own, with its place in the batch and the reason.

export const Rejected = z.object({ index: z.number().int(), id: z.string(), reason: z.string(), detail: z.string() }).meta({ id: 'EventRejected' });

export const tooManyEvents = (max: number) =>
  new DomainError(413, 'too_many_events', 'Too large', `A batch holds at most ${max} events.`, [{ field: 'events', message: `at most ${max} events` }]);

/** Each raw event read by `schema`; those that do not fit are refused with the first bad field. */
export function readEvents<T extends z.ZodType>(raw: unknown[], schema: T, toEvent: (e: z.output<T>, index: number) => IncomingEvent) {
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
}
