import type { Ctx, ServerCaller, Services } from '../context.js';
import { ERASE_BLOCK_DAYS, subjectHash } from '../contacts/erasure.js';
import { conflict } from '../errors.js';
import { cachedDefinitions } from './definition-cache.js';
import {
  erasedRejection,
  ingestEvents,
  openBatch,
  writeEvents,
  type IncomingEvent,
  type IngestOptions,
  type Rejection,
  type SentBatch,
} from './ingest.js';
import { isEventName } from './names.js';
import { typeEvents } from './typing.js';

export const MAX_SERVER_BATCH = 500;

/** A server may send any event; one not yet defined is made on first sight. */
const SERVER_EVENTS: IngestOptions = { source: 'server', mayDefine: () => true, mayUse: () => true };

/**
 * POST /server/v1/events: up to 500 events, each kept or refused on its own. A batch whose events
 * are all for erased people is refused whole (409 erased); otherwise they are listed.
 */
export async function ingestServerEvents(ctx: Ctx<ServerCaller>, batch: SentBatch): Promise<{ accepted: number; rejected: Rejection[] }> {
  const { events, rejected } = openBatch(batch, MAX_SERVER_BATCH);
  const result = (await keepKnownEvents(ctx, events, rejected)) ?? (await ingestEvents(ctx, events, SERVER_EVENTS, rejected));
  if (result.allErased && result.rejected.length === batch.size)
    throw conflict('erased', `Every event in the batch is for a person erased within ${ERASE_BLOCK_DAYS} days.`);
  return { accepted: result.accepted, rejected: result.rejected };
}

/**
 * The usual batch, in one statement: every definition it names is cached and already holds every
 * prop it carries, so nothing is made or grown and no definition is read. The erase check, the
 * insert, the daily counts and the refusals run in crm_ingest_events, one transaction. Undefined
 * when a definition is missing or must grow: the locked path (ingestEvents) then does it all.
 */
async function keepKnownEvents(ctx: Ctx<ServerCaller>, events: IncomingEvent[], rejected: Rejection[]) {
  const names = new Set<string>();
  for (const e of events) names.add(e.name);
  const defs = cachedDefinitions(ctx, [...names].filter(isEventName));
  if (!defs) return undefined;
  const { typed, refused, grown } = typeEvents(events, defs, SERVER_EVENTS);
  if (grown.size) return undefined;
  const subjects = [...new Set(events.map((e) => e.externalId))];
  const held = { subjects, hashes: subjects.map((x) => subjectHash(ctx.svc, ctx.caller.appId, x)) };
  const { accepted, erased } = await writeEvents(ctx, SERVER_EVENTS, { typed, rejected: [...rejected, ...refused], sent: events, held });
  // An erased person's events are refused as erased, whatever else was wrong with them.
  const gone = erased.size ? events.filter((e) => erased.has(e.externalId)) : [];
  const hidden = new Set(gone.map((e) => e.index));
  const all = [...rejected, ...refused.filter((r) => !hidden.has(r.index)), ...gone.map(erasedRejection)];
  return { accepted, rejected: all.sort((a, b) => a.index - b.index), allErased: events.length > 0 && gone.length === events.length };
}
