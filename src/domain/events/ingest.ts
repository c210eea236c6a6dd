import type { EventDefinition } from '../../generated/prisma/client.js';
import { transaction, type AppCaller, type Ctx, type TxCtx } from '../context.js';
import { ERASE_BLOCK_DAYS, erasedAmong } from '../contacts/erasure.js';
import { DomainError } from '../errors.js';
import { rememberDefinitions } from './definition-cache.js';
import { lockDefinitions, propsOf } from './definitions.js';
import { rows } from '../../db/sql.js';
import { arrayLiteral } from '../sql.js';
import { isEventName } from './names.js';
import type { IncomingEvent, IngestOptions, Rejection } from './incoming.js';
import { typeEvents, type KnownDefinition, type Typed } from './typing.js';

// One path for server and guest events: read props by their definitions (growing them on first
// sight), refuse what must be refused, and write the rest, the daily counts and the refusals in
// one statement (crm_ingest_events), each id kept once.

export type { IncomingEvent, IngestOptions, Rejection };

/** A batch as sent: how many events it holds, and each read by its shape when asked (refused `invalid` when it does not fit). */
export interface SentBatch {
  size: number;
  read(): { events: IncomingEvent[]; rejected: Rejection[] };
}

export const tooManyEvents = (max: number) =>
  new DomainError(413, 'too_many_events', 'Too large', `A batch holds at most ${max} events.`, [
    { field: 'events', message: `at most ${max} events` },
  ]);

/** The batch's events read by shape; a batch of more than `max` is refused whole before any is read. */
export function openBatch(batch: SentBatch, max: number) {
  if (batch.size > max) throw tooManyEvents(max);
  return batch.read();
}

export const ERASED_DETAIL = `This person was erased; their events are refused for ${ERASE_BLOCK_DAYS} days.`;
export const erasedRejection = (e: IncomingEvent): Rejection => ({ index: e.index, id: e.id, reason: 'erased', detail: ERASED_DETAIL });

/** Each person's erase checked, then their events typed with definitions locked where they grow. */
export async function ingestEvents(ctx: Ctx<AppCaller>, events: IncomingEvent[], opts: IngestOptions, rejected: Rejection[] = []) {
  const result = await transaction(ctx, async (tx) => {
    const erased = await erasedAmong(tx, [...new Set(events.map((e) => e.externalId))]);
    const live = events.filter((e) => {
      if (!erased.has(e.externalId)) return true;
      rejected.push(erasedRejection(e));
      return false;
    });
    const result = await keepEvents(tx, live, opts, rejected, events);
    return { ...result, allErased: events.length > 0 && events.every((e) => erased.has(e.externalId)) };
  });
  // Committed: what it read and wrote may now type later batches (definition-cache.ts).
  rememberDefinitions(ctx, result.definitions);
  return result;
}

/**
 * Types, inserts and counts events of people known not to be erased (the caller checked, in `tx`);
 * refusals are recorded for the Data page, never naming an erased person.
 */
export async function keepEvents(tx: TxCtx<AppCaller>, live: IncomingEvent[], opts: IngestOptions, rejected: Rejection[], sent = live) {
  const { typed, refused, definitions } = await typeLocked(tx, live, opts);
  rejected.push(...refused);
  const { accepted } = await writeEvents(tx, opts, { typed, rejected, sent });
  return { accepted, rejected: rejected.sort((a, b) => a.index - b.index), definitions };
}

const knownOf = (d: EventDefinition): KnownDefinition => ({ name: d.name, source: d.source, props: propsOf(d.props) });

/** The events typed by their definitions as read; those that must be made or grown are locked, read again, and grown. */
async function typeLocked(tx: TxCtx<AppCaller>, events: IncomingEvent[], opts: IngestOptions) {
  const names = [...new Set(events.map((e) => e.name).filter(isEventName))];
  const rows = names.length ? await tx.db.eventDefinition.findMany({ where: { appModeId: tx.caller.appModeId, name: { in: names } } }) : [];
  const ids = new Map(rows.map((d) => [d.name, d.id]));
  const defs = new Map(rows.map((d) => [d.name, knownOf(d)]));
  let batch = typeEvents(events, defs, opts);
  if (batch.grown.size) {
    const locked = await lockDefinitions(tx, [...batch.grown.keys()], opts.source === 'guest' ? 'both' : 'server');
    for (const d of locked.defs.values()) {
      ids.set(d.name, d.id);
      defs.set(d.name, knownOf(d));
    }
    // Typed again by what the locks hold now: another batch may have grown them meanwhile.
    batch = typeEvents(events, defs, opts);
    for (const [name, props] of batch.grown) {
      if (props.length === defs.get(name)!.props.length) continue;
      await tx.db.eventDefinition.update({ where: { id: ids.get(name)! }, data: { props: props as never } });
      defs.set(name, { ...defs.get(name)!, props });
    }
  }
  return { ...batch, definitions: [...defs.values()] };
}

/** The refusals as the write functions take them (p_refused): each with the person and name it was sent with. */
export function refusedJson(rejected: Rejection[], sentEvents: IncomingEvent[]): string {
  const sent = rejected.length ? new Map(sentEvents.map((e) => [e.index, e])) : undefined;
  const refused = rejected.map((r) => {
    const e = sent!.get(r.index);
    return { index: r.index, id: r.id, external_id: e?.externalId ?? null, name: e?.name ?? null, reason: r.reason, detail: r.detail };
  });
  return JSON.stringify(refused);
}

const WRITE = `SELECT accepted, erased FROM crm_ingest_events($1::uuid, $2, $3, $4, $5::timestamptz, $6::text[], $7::text[],
  $8::int[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::jsonb[], $14::json, $15)`;

/**
 * Writes a typed batch in one statement (crm_ingest_events): the events, kept once per id; the
 * daily counts, grown by what was new; the refusals, for the Data page, never naming an erased
 * person. `held`: the people to hold against an erase and check, with their subject hashes,
 * unless the caller did in this transaction. Answers how many were kept and which people are erased.
 */
export async function writeEvents(
  ctx: Ctx<AppCaller>,
  opts: IngestOptions,
  batch: { typed: Typed[]; rejected: Rejection[]; sent: IncomingEvent[]; held?: { subjects: string[]; hashes: string[] } },
): Promise<{ accepted: number; erased: Set<string> }> {
  if (!batch.typed.length && !batch.rejected.length) return { accepted: 0, erased: new Set() };
  const { typed } = batch;
  const scope = ctx.caller;
  const [row] = await rows<{ accepted: number; erased: string[] }>(ctx, {
    text: WRITE,
    values: [
      scope.appModeId,
      scope.appId,
      opts.source,
      opts.platform ?? null,
      ctx.clock.now().toISOString(),
      arrayLiteral(batch.held?.subjects ?? []),
      arrayLiteral(batch.held?.hashes ?? []),
      `{${typed.map((t) => t.event.index).join(',')}}`,
      arrayLiteral(typed.map((t) => t.event.id)),
      arrayLiteral(typed.map((t) => t.event.externalId)),
      arrayLiteral(typed.map((t) => t.event.name)),
      `{${typed.map((t) => t.event.occurredAt.getTime()).join(',')}}`,
      arrayLiteral(typed.map((t) => JSON.stringify(t.props))),
      refusedJson(batch.rejected, batch.sent),
      ERASED_DETAIL,
    ],
  });
  return { accepted: row!.accepted, erased: new Set(row!.erased) };
}
