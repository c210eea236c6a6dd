import type { EventDefinition } from '../../generated/prisma/client.js';
import { transaction, type AppCaller, type Ctx, type TxCtx } from '../context.js';
import { isEventName } from './names.js';
import { MAX_DEFINITION_PROPS, MAX_PROP_KEY, MAX_PROPS, PROP_TYPES, type PropDefinition, type PropType } from './props.js';
import { rows, sql } from '../../db/sql.js';

// Event definitions only ever grow: an absent event is made, an absent prop added; nothing is
// deleted, and a prop's type is never changed.

export interface DefinitionInput {
  name: string;
  description?: string;
  category?: string;
  source?: string;
  props?: { key: string; type: string }[];
}

export type Outcome =
  { name: string; outcome: 'created' | 'props_added' | 'unchanged' } | { name: string; outcome: 'refused'; reason: string };

export const propsOf = (json: unknown) => (Array.isArray(json) ? (json as PropDefinition[]) : []);

function problemOf(d: DefinitionInput): string | undefined {
  if (!isEventName(d.name)) return 'name must be 1 to 100 letters, digits, spaces or _ . : / -, starting with a letter or digit';
  if (d.source !== undefined && d.source !== 'server' && d.source !== 'both') return 'source must be server or both';
  if (d.category !== undefined && !/^[\w-]{1,40}$/.test(d.category)) return 'category must be one word of at most 40 characters';
  if (d.description !== undefined && d.description.length > 500) return 'description must be at most 500 characters';
  const props = d.props ?? [];
  if (props.length > MAX_PROPS) return `an event has at most ${MAX_PROPS} props`;
  const seen = new Set<string>();
  for (const p of props) {
    if (!p.key || p.key.length > MAX_PROP_KEY) return `prop keys must be 1 to ${MAX_PROP_KEY} characters`;
    if (!PROP_TYPES.includes(p.type as PropType)) return `prop ${p.key}: type must be one of ${PROP_TYPES.join(', ')}`;
    if (seen.has(p.key)) return `prop ${p.key} is declared twice`;
    seen.add(p.key);
  }
  return undefined;
}

/** PUT /server/v1/event-definitions: each definition's outcome, all in one transaction. */
export async function declareEvents(ctx: Ctx<AppCaller>, definitions: DefinitionInput[]): Promise<Outcome[]> {
  return transaction(ctx, async (tx) => {
    const names = [...new Set(definitions.filter((d) => !problemOf(d)).map((d) => d.name))];
    const { defs: existing, created } = await lockDefinitions(tx, names);
    const outcomes: Outcome[] = [];
    for (const d of definitions) {
      const problem = problemOf(d);
      if (problem) {
        outcomes.push({ name: d.name, outcome: 'refused', reason: problem });
        continue;
      }
      const declared = (d.props ?? []) as PropDefinition[];
      const current = existing.get(d.name)!;
      const fresh = created.delete(d.name);
      const props = propsOf(current.props);
      const clash = declared.find((p) => props.some((q) => q.key === p.key && q.type !== p.type));
      if (clash) {
        const was = props.find((q) => q.key === clash.key)!.type;
        outcomes.push({ name: d.name, outcome: 'refused', reason: `prop ${clash.key} is ${was}; a prop's type is never changed` });
        continue;
      }
      const added = declared.filter((p) => !props.some((q) => q.key === p.key));
      if (props.length + added.length > MAX_DEFINITION_PROPS) {
        outcomes.push({
          name: d.name,
          outcome: 'refused',
          reason: `an event holds at most ${MAX_DEFINITION_PROPS} props; this would make ${props.length + added.length}`,
        });
        continue;
      }
      const row = await tx.db.eventDefinition.update({
        where: { id: current.id },
        data: {
          props: [...props, ...added] as never,
          declared: true,
          // Only what was missing is filled in: a declaration never changes what is there.
          description: current.description ?? d.description,
          category: current.category ?? d.category,
          source: fresh ? (d.source ?? 'server') : d.source === 'both' ? 'both' : current.source,
        },
      });
      existing.set(d.name, row);
      outcomes.push({ name: d.name, outcome: fresh ? 'created' : added.length ? 'props_added' : 'unchanged' });
    }
    return outcomes;
  });
}

/**
 * The definitions of these names, made (empty) where absent and locked for this transaction, so
 * concurrent batches add props one after the other. `created` names the ones this call made.
 */
export async function lockDefinitions(tx: TxCtx<AppCaller>, names: string[], source = 'server') {
  if (!names.length) return { defs: new Map<string, EventDefinition>(), created: new Set<string>() };
  const { db, caller: scope } = tx;
  const made = await rows<{ name: string }>(
    tx,
    sql`
    INSERT INTO event_definition (id, app_mode_id, name, source, props, declared, created_at, updated_at)
    SELECT gen_random_uuid()::text, ${scope.appModeId}, n, ${source}, '[]'::jsonb, false, now(), now() FROM unnest(${names}::text[]) AS n
    ON CONFLICT (app_mode_id, name) DO NOTHING
    RETURNING name`,
  );
  const locked = await rows<{ id: string }>(
    tx,
    sql`
    SELECT id FROM event_definition WHERE app_mode_id = ${scope.appModeId} AND name = ANY(${names}::text[]) ORDER BY name FOR UPDATE`,
  );
  const defs = await db.eventDefinition.findMany({ where: { id: { in: locked.map((r) => r.id) } } });
  return { defs: new Map(defs.map((d) => [d.name, d])), created: new Set(made.map((m) => m.name)) };
}
