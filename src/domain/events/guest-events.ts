import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { touchContact } from '../contacts/contacts.js';
import { cachedDefinitions, rememberDefinitions } from './definition-cache.js';
import { rows } from '../../db/sql.js';
import { erasedRefusal, subjectHash } from '../contacts/erasure.js';
import { arrayLiteral } from '../sql.js';
import {
  ERASED_DETAIL,
  keepEvents,
  openBatch,
  refusedJson,
  type IncomingEvent,
  type IngestOptions,
  type Rejection,
  type SentBatch,
} from './ingest.js';
import { BUILT_IN_EVENTS } from './names.js';
import { typeEvents, type Typed } from './typing.js';

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
  // Refused for their age, by the clock alone; a person who turned product events off is answered
  // only what was refused for its shape, as before anything is read.
  const unread = [...rejected];
  const timely = events.filter((e) => {
    const age = now - e.occurredAt.getTime();
    if (age > MAX_EVENT_AGE_MS)
      rejected.push({ index: e.index, id: e.id, reason: 'too_old', detail: 'Events older than a week are refused.' });
    else if (-age > MAX_EVENT_LEAD_MS)
      rejected.push({ index: e.index, id: e.id, reason: 'in_future', detail: 'The event is dated more than a day ahead.' });
    else return true;
    return false;
  });
  const known = typedFromCache(ctx, timely, opts);
  if (known) {
    // The hot path: every definition known here, so the person, the batch and its counts in one statement.
    rejected.push(...known.refused);
    const row = await writeGuestBatch(ctx, platform, known.typed, rejected, events);
    if (row.erased) throw erasedRefusal(ctx.caller.externalId);
    if (row.events_off) return { accepted: 0, rejected: unread };
    return { accepted: row.accepted, rejected: rejected.sort((a, b) => a.index - b.index) };
  }
  const result = await transaction(ctx, async (tx) => {
    const { contact } = await touchContact(tx, tx.caller.externalId, { sdk: tx.caller.sdk });
    if (contact.productEventsOff) return { accepted: 0, rejected: unread, definitions: [] };
    return keepEvents(tx, timely, opts, rejected, events);
  });
  // Committed: what it read and wrote may now type later batches (definition-cache.ts).
  if (result.definitions.length) rememberDefinitions(ctx, result.definitions);
  return { accepted: result.accepted, rejected: result.rejected };
}

const WRITE = `SELECT erased, events_off, accepted FROM crm_guest_events($1, $2::text, $3, $4, $5, $6::timestamptz, $7,
  $8::int[], $9::text[], $10::text[], $11::bigint[], $12::jsonb[], $13::json, $14)`;

/**
 * One statement on the pool, no transaction of its own (crm_guest_events): the person held against
 * an erase and checked, made on first sight, their SDK recorded; then, unless they turned product
 * events off, the typed events kept once per id, the daily counts grown and the refusals recorded.
 */
async function writeGuestBatch(ctx: Ctx<GuestCaller>, platform: string, typed: Typed[], rejected: Rejection[], sent: IncomingEvent[]) {
  const { appId, appModeId, externalId, sdk } = ctx.caller;
  const [row] = await rows<{ erased: boolean; events_off: boolean; accepted: number }>(ctx, {
    text: WRITE,
    values: [
      appId,
      appModeId,
      externalId,
      subjectHash(ctx.svc, appId, externalId),
      sdk ?? null,
      ctx.clock.now().toISOString(),
      platform,
      `{${typed.map((t) => t.event.index).join(',')}}`,
      arrayLiteral(typed.map((t) => t.event.id)),
      arrayLiteral(typed.map((t) => t.event.name)),
      `{${typed.map((t) => t.event.occurredAt.getTime()).join(',')}}`,
      arrayLiteral(typed.map((t) => JSON.stringify(t.props))),
      refusedJson(rejected, sent),
      ERASED_DETAIL,
    ],
  });
  return row!;
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
