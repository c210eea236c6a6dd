import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { touchContact } from '../contacts/contacts.js';
import { keepEvents, openBatch, type SentBatch } from './ingest.js';
import { BUILT_IN_EVENTS } from './names.js';

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
  const { accepted, rejected: refused } = await transaction(ctx, async (tx) => {
    const { contact } = await touchContact(tx, tx.caller.externalId, { sdk: tx.caller.sdk });
    if (contact.productEventsOff) return { accepted: 0, rejected };
    const timely = events.filter((e) => {
      const age = now - e.occurredAt.getTime();
      if (age > MAX_EVENT_AGE_MS) rejected.push({ index: e.index, id: e.id, reason: 'too_old', detail: 'Events older than a week are refused.' });
      else if (-age > MAX_EVENT_LEAD_MS) rejected.push({ index: e.index, id: e.id, reason: 'in_future', detail: 'The event is dated more than a day ahead.' });
      else return true;
      return false;
    });
    return keepEvents(tx, timely, {
      source: 'guest',
      platform,
      mayDefine: (name) => BUILT_IN_EVENTS.has(name),
      mayUse: (def) => def.source === 'both' || BUILT_IN_EVENTS.has(def.name),
    }, rejected, events);
  });
  return { accepted, rejected: refused };
}
