import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { touchContact } from '../contacts/contacts.js';
import { cachedDefinitions, rememberDefinitions } from './definition-cache.js';
import { keepEvents, openBatch, writeEvents, type IncomingEvent, type IngestOptions, type Rejection, type SentBatch } from './ingest.js';
import { BUILT_IN_EVENTS } from './names.js';
import { typeEvents } from './typing.js';

export const MAX_GUEST_BATCH = 50;
export const MAX_EVENT_AGE_MS = 7 * 86_400_000;
/** Clocks on phones drift; beyond this an event is from the future. */
export const MAX_EVENT_LEAD_MS = 86_400_000;

/**
 * POST /guest/v1/events: up to 50. Built-in events and those the app declares for clients (source
 * both) are kept; older than a week is refused; nothing is kept when the user turned product events off.
 */
export async function ingestGuestEvents(ctx: Ctx<GuestCaller>, batch: SentBatch, platform: string) {
  const { events, rejected } = openBatch(batch, MAX_GUEST_BATCH);
  const now = ctx.clock.now().getTime();
  const opts: IngestOptions = {
    source: 'guest',
    platform,
    mayDefine: (name) => BUILT_IN_EVENTS.has(name),
    mayUse: (def) => def.source === 'both' || BUILT_IN_EVENTS.has(def.name),
  };
  const result = await transaction(ctx, async (tx) => {
    const { contact } = await touchContact(tx, tx.caller.externalId, { sdk: tx.caller.sdk });
    if (contact.productEventsOff) return { accepted: 0, rejected, definitions: [] };
    const timely = events.filter((e) => {
      const age = now - e.occurredAt.getTime();
      if (age > MAX_EVENT_AGE_MS)
        rejected.push({ index: e.index, id: e.id, reason: 'too_old', detail: 'Events older than a week are refused.' });
      else if (-age > MAX_EVENT_LEAD_MS)
        rejected.push({ index: e.index, id: e.id, reason: 'in_future', detail: 'The event is dated more than a day ahead.' });
      else return true;
      return false;
    });
    const known = typedFromCache(tx, timely, opts);
    if (known) {
      rejected.push(...known.refused);
      const { accepted } = await writeEvents(tx, opts, { typed: known.typed, rejected, sent: events });
      return { accepted, rejected: rejected.sort((a, b) => a.index - b.index), definitions: [] };
    }
    return keepEvents(tx, timely, opts, rejected, events);
  });
  // Committed: what it read and wrote may now type later batches (definition-cache.ts).
  if (result.definitions.length) rememberDefinitions(ctx, result.definitions);
  return { accepted: result.accepted, rejected: result.rejected };
}

/**
 * The events typed without reading a definition, when every one is a built-in event (which a guest
 * may send whatever the definition's `source`, so a cached definition's `source` cannot mislead)
 * whose definition is cached and already holds every prop sent. Undefined otherwise: then the
 * definitions are read (and made or grown) as they are now.
 */
function typedFromCache(
  ctx: Ctx<GuestCaller>,
  events: IncomingEvent[],
  opts: IngestOptions,
): { typed: ReturnType<typeof typeEvents>['typed']; refused: Rejection[] } | undefined {
  if (!events.every((e) => BUILT_IN_EVENTS.has(e.name))) return undefined;
  const defs = cachedDefinitions(ctx, new Set(events.map((e) => e.name)));
  if (!defs) return undefined;
  const { typed, refused, grown } = typeEvents(events, defs, opts);
  return grown.size ? undefined : { typed, refused };
}
