import { randomUUID } from 'node:crypto';
import type { EventDefinition, Prisma } from '../../generated/prisma/client.js';
import type { AppScope, Services } from '../context.js';
import { erasedAmong } from '../contacts/erasure.js';
import { lockDefinitions, propsOf } from './definitions.js';
import { isEventName, MAX_EVENT_NAME } from './names.js';
import { guessPropType, MAX_DEFINITION_PROPS, propProblem, readProp, type PropDefinition } from './props.js';

// One path for server and guest events: read props by their definitions (growing them on first
// sight), refuse what must be refused, and insert the rest in one statement, kept once per id.

export interface IncomingEvent {
  index: number;
  id: string;
  externalId: string;
  name: string;
  occurredAt: Date;
  props: Record<string, string>;
}

export interface Rejection {
  index: number;
  id: string;
  reason: string;
  detail: string;
}

export interface IngestOptions {
  source: 'server' | 'guest';
  /** The guest's platform; web events are counted apart. */
  platform?: string;
  /** Whether a name with no definition is made on first sight (else refused). */
  mayDefine: (name: string) => boolean;
  /** Whether a defined event may come from this source. */
  mayUse: (def: EventDefinition) => boolean;
}

type Tx = Prisma.TransactionClient;
interface Typed {
  event: IncomingEvent;
  props: Record<string, string | number | boolean>;
}

/** Server events: each person's erase checked in the batch's own transaction. */
export async function ingestEvents(svc: Services, scope: AppScope, events: IncomingEvent[], opts: IngestOptions, rejected: Rejection[] = []) {
  return svc.db.$transaction(async (tx) => {
    const erased = await erasedAmong(svc, tx, scope, [...new Set(events.map((e) => e.externalId))]);
    const live = events.filter((e) => {
      if (!erased.has(e.externalId)) return true;
      rejected.push({ index: e.index, id: e.id, reason: 'erased', detail: 'This person was erased; their events are refused for 30 days.' });
      return false;
    });
    const result = await keepEvents(svc, tx, scope, live, opts, rejected, events);
    return { ...result, allErased: events.length > 0 && events.every((e) => erased.has(e.externalId)) };
  });
}

/**
 * Types, inserts and counts events of people known not to be erased (the caller checked, in `tx`);
 * refusals are recorded for the Data page, never naming an erased person.
 */
export async function keepEvents(svc: Services, tx: Tx, scope: AppScope, live: IncomingEvent[], opts: IngestOptions, rejected: Rejection[], sent = live) {
  const now = svc.clock.now();
  const typed = await typeEvents(tx, scope, live, opts, rejected);
  const accepted = await insertEvents(tx, scope, typed, opts, now);
  if (rejected.length) await recordRefusals(tx, scope, opts.source, sent, rejected, now);
  return { accepted, rejected: rejected.sort((a, b) => a.index - b.index) };
}

/** Reads every prop by its definition. Definitions that must grow are locked and grown first. */
async function typeEvents(tx: Tx, scope: AppScope, events: IncomingEvent[], opts: IngestOptions, rejected: Rejection[]): Promise<Typed[]> {
  const named = events.filter((e) => {
    if (isEventName(e.name)) return true;
    rejected.push({ index: e.index, id: e.id, reason: 'invalid', detail: `events.${e.index}.name: letters, digits, spaces or _ . : / -, starting with a letter or digit, at most ${MAX_EVENT_NAME}` });
    return false;
  });
  events = named;
  const names = [...new Set(events.map((e) => e.name))];
  let defs = new Map((await tx.eventDefinition.findMany({ where: { appModeId: scope.appModeId, name: { in: names } } })).map((d) => [d.name, d]));
  const mustGrow = (d: EventDefinition | undefined, e: IncomingEvent) => !d || Object.keys(e.props).some((k) => !propsOf(d.props).some((p) => p.key === k));
  const growing = names.filter((n) => {
    const d = defs.get(n);
    return (d ? opts.mayUse(d) : opts.mayDefine(n)) && events.some((e) => e.name === n && mustGrow(d, e));
  });
  if (growing.length) {
    const locked = await lockDefinitions(tx, scope, growing, opts.source === 'guest' ? 'both' : 'server');
    defs = new Map([...defs, ...locked.defs]);
  }

  const grown = new Map<string, PropDefinition[]>();
  const typed: Typed[] = [];
  for (const e of events) {
    const def = defs.get(e.name);
    if (!def) {
      rejected.push({ index: e.index, id: e.id, reason: 'unknown_event', detail: `"${e.name}" is neither a built-in event nor one this app defines.` });
      continue;
    }
    if (!opts.mayUse(def)) {
      rejected.push({ index: e.index, id: e.id, reason: 'server_only_event', detail: `"${e.name}" is declared as sent by servers only (source: server).` });
      continue;
    }
    const props = grown.get(e.name) ?? propsOf(def.props);
    const added: PropDefinition[] = [];
    const values: Typed['props'] = {};
    let problem: { reason: string; detail: string } | undefined;
    for (const [key, raw] of Object.entries(e.props)) {
      const unfit = propProblem(key, raw);
      if (unfit) {
        problem = { reason: 'invalid_prop', detail: unfit };
        break;
      }
      let prop = props.find((p) => p.key === key) ?? added.find((p) => p.key === key);
      if (!prop) {
        if (props.length + added.length >= MAX_DEFINITION_PROPS) {
          problem = { reason: 'too_many_props', detail: `prop ${key} is new, and "${e.name}" already holds the most props an event may (${MAX_DEFINITION_PROPS})` };
          break;
        }
        added.push((prop = { key, type: guessPropType(raw) }));
      }
      const read = readProp(prop.type, raw);
      if ('problem' in read) {
        problem = { reason: 'invalid_prop', detail: `prop ${key} ${read.problem} (its type is ${prop.type})` };
        break;
      }
      values[key] = read.value;
    }
    if (problem) {
      rejected.push({ index: e.index, id: e.id, ...problem });
      continue;
    }
    if (added.length) grown.set(e.name, [...props, ...added]);
    typed.push({ event: e, props: values });
  }
  for (const [name, props] of grown) {
    await tx.eventDefinition.update({ where: { id: defs.get(name)!.id }, data: { props: props as never } });
  }
  return typed;
}

/** One multi-row insert; an id already kept is skipped. Daily counts grow by what was new. */
async function insertEvents(tx: Tx, scope: AppScope, typed: Typed[], opts: IngestOptions, now: Date): Promise<number> {
  const unique = [...new Map(typed.map((t) => [t.event.id, t])).values()];
  if (!unique.length) return 0;
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO event (app_mode_id, id, external_id, name, occurred_at, received_at, source, platform, props)
    SELECT ${scope.appModeId}::uuid, i, x, n, o, ${now}, ${opts.source}, ${opts.platform ?? null}, p
    FROM unnest(${unique.map((t) => t.event.id)}::text[], ${unique.map((t) => t.event.externalId)}::text[], ${unique.map((t) => t.event.name)}::text[],
                ${unique.map((t) => t.event.occurredAt)}::timestamptz[], ${unique.map((t) => JSON.stringify(t.props))}::jsonb[]) AS u(i, x, n, o, p)
    ON CONFLICT (app_mode_id, id) DO NOTHING
    RETURNING id`;
  if (!inserted.length) return 0;
  const byId = new Map(unique.map((t) => [t.event.id, t.event]));
  const counts = new Map<string, { name: string; day: string; count: number }>();
  for (const { id } of inserted) {
    const e = byId.get(id)!;
    const day = e.occurredAt.toISOString().slice(0, 10);
    const key = `${day}\u0000${e.name}`;
    const c = counts.get(key) ?? { name: e.name, day, count: 0 };
    c.count++;
    counts.set(key, c);
  }
  // In one order everywhere, so concurrent batches lock the same counters without deadlock.
  const rows = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
  await tx.$executeRaw`
    INSERT INTO event_daily_count (app_mode_id, day, name, platform, count)
    SELECT ${scope.appModeId}::uuid, d::date, n, ${opts.platform ?? opts.source}, c
    FROM unnest(${rows.map((r) => r.day)}::text[], ${rows.map((r) => r.name)}::text[], ${rows.map((r) => r.count)}::int[]) AS u(d, n, c)
    ON CONFLICT (app_mode_id, day, name, platform) DO UPDATE SET count = event_daily_count.count + excluded.count`;
  return inserted.length;
}

/** Refused events, for the app's Data page. */
async function recordRefusals(tx: Tx, scope: AppScope, source: string, events: IncomingEvent[], rejected: Rejection[], now: Date) {
  const byIndex = new Map(events.map((e) => [e.index, e]));
  await tx.refusedEvent.createMany({
    data: rejected.map((r) => {
      // An erased person's refused events are counted, but nothing says whose or which they were.
      const named = r.reason !== 'erased';
      const e = named ? byIndex.get(r.index) : undefined;
      return {
        id: randomUUID(),
        appModeId: scope.appModeId,
        source,
        eventId: (named && r.id) || null,
        name: e?.name ?? null,
        externalId: e?.externalId ?? null,
        index: r.index,
        reason: r.reason,
        detail: r.detail,
        receivedAt: now,
      };
    }),
  });
}
