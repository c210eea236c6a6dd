import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { touchContact } from '../contacts/contacts.js';
import { cachedDefinitions, rememberDefinitions } from './definition-cache.js';
import type pg from 'pg';
import { WriteGroups } from '../../db/groups.js';
import { rows, type SqlTarget } from '../../db/sql.js';
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
const WRITE_GROUP = 'SELECT n, erased, events_off, accepted FROM crm_guest_events_group($1::json, $2)';

interface Written {
  erased: boolean;
  events_off: boolean;
  accepted: number;
}

/**
 * One statement on the pool, no transaction of its own (crm_guest_events): the person held against
 * an erase and checked, made on first sight, their SDK recorded; then, unless they turned product
 * events off, the typed events kept once per id, the daily counts grown and the refusals recorded.
 * On the pool it is written in a group (see GuestEventGroups), in a caller's transaction alone there.
 */
async function writeGuestBatch(ctx: Ctx<GuestCaller>, platform: string, typed: Typed[], rejected: Rejection[], sent: IncomingEvent[]) {
  const { appId, appModeId, externalId, sdk } = ctx.caller;
  const batch: GroupedBatch = {
    app_id: appId,
    app_mode_id: appModeId,
    external_id: externalId,
    hash: subjectHash(ctx.svc, appId, externalId),
    sdk: sdk ?? null,
    now: ctx.clock.now().toISOString(),
    platform,
    idx: typed.map((t) => t.event.index),
    ids: typed.map((t) => t.event.id),
    names: typed.map((t) => t.event.name),
    occurred: typed.map((t) => t.event.occurredAt.getTime()),
    props: typed.map((t) => t.props),
    refused: refusedJson(rejected, sent),
  };
  if (ctx.db !== ctx.svc.db || ctx.sqlClient) return writeAlone(ctx, batch);
  return ctx.svc.caches.guestEventGroups.write(batch);
}

/** The arguments of crm_guest_events for one request, as crm_guest_events_group reads them. */
interface GroupedBatch {
  app_id: string;
  app_mode_id: string;
  external_id: string;
  hash: string;
  sdk: string | null;
  now: string;
  platform: string;
  idx: number[];
  ids: string[];
  names: string[];
  occurred: number[];
  props: unknown[];
  /** JSON text (refusedJson). */
  refused: string;
}

async function writeAlone(on: SqlTarget, b: GroupedBatch): Promise<Written> {
  const [row] = await rows<Written>(on, {
    text: WRITE,
    values: [
      b.app_id,
      b.app_mode_id,
      b.external_id,
      b.hash,
      b.sdk,
      b.now,
      b.platform,
      `{${b.idx.join(',')}}`,
      arrayLiteral(b.ids),
      arrayLiteral(b.names),
      `{${b.occurred.join(',')}}`,
      arrayLiteral(b.props.map((p) => JSON.stringify(p))),
      b.refused,
      ERASED_DETAIL,
    ],
  });
  return row!;
}

/** Requests' batches written in one statement at most (a bounded group: its JSON and its transaction stay short). */
export const MAX_GROUP = 64;
/** Groups in flight at once per process: one waits on its commit's flush while the next is written. */
export const GROUPS_IN_FLIGHT = 2;

/**
 * Group commit: a guest event batch is written at once when fewer than GROUPS_IN_FLIGHT groups are
 * being written; else it waits for one of them to return, and the batches that waited meanwhile
 * (at most MAX_GROUP) are written by one statement, crm_guest_events_group: one transaction, one
 * commit flush for all. Each request is answered only by the commit that holds its batch, with its
 * own answer (erased, events off, how many kept). A group whose statement fails (a deadlock with
 * another process, one batch the statement refuses) wrote nothing: each of its batches is then
 * written alone, and answered or refused on its own. A group whose connection was cut may have
 * committed: each of its requests is refused as unavailable (503), as a batch written alone is.
 */
export class GuestEventGroups extends WriteGroups<GroupedBatch, Written> {
  constructor(pool: pg.Pool) {
    const on = { pool };
    super({
      max: MAX_GROUP,
      inFlight: GROUPS_IN_FLIGHT,
      alone: (batch) => writeAlone(on, batch),
      together: async (batches) => {
        const written = await rows<Written & { n: number }>(on, { text: WRITE_GROUP, values: [groupJson(batches), ERASED_DETAIL] });
        // Each row names its batch; a group answered short is written again one batch at a time (WriteGroups).
        if (written.length !== batches.length) return [];
        const byBatch: Written[] = [];
        for (const row of written) byBatch[row.n] = row;
        return byBatch;
      },
    });
  }
}

declare module '../services.js' {
  interface Caches {
    /** The guest event batches being written in groups on the pool (built by openServices). */
    guestEventGroups: GuestEventGroups;
  }
}

/** The batches as one JSON array, each batch's refusals (already JSON text) set in as they are. */
function groupJson(batches: GroupedBatch[]): string {
  return `[${batches.map(({ refused, ...b }) => `${JSON.stringify(b).slice(0, -1)},"refused":${refused}}`).join(',')}]`;
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
