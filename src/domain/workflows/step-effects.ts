import { randomUUID } from 'node:crypto';
import { one, sql } from '../../db/sql.js';
import { compileAudience } from '../audiences/compile.js';
import { peopleFacts, type PersonRow } from '../audiences/people-facts.js';
import type { Rule } from '../audiences/rules.js';
import {
  COMPUTED_ATTRIBUTES,
  holdToType,
  isAttributeName,
  MAX_LIST_ITEMS,
  STANDARD_FIELDS,
  typeOfValue,
  type AttributeType,
} from '../contacts/attributes.js';
import { fieldName, noteChanged } from '../contacts/changes.js';
import { emit } from '../outbox.js';
import type { Done, Taking } from './run-record.js';

// What the steps that change nothing outside the database do to the person, inside the
// transaction that records the step (run-record.ts): a branch's condition read over the person's
// facts as an audience rule reads them, an attribute set, a tag added or removed. A change the
// person's record already shows is `skipped` with reason `unchanged`; one the app's data rules
// refuse is `skipped` with the rule's reason, never a failed run.

/** Whether the person meets a branch's condition now (their attributes, events and survey answers; check-in facts are unknown here). */
export async function meetsCondition({ tx, person }: Taking, condition: unknown): Promise<boolean> {
  const audience = compileAudience(condition as Rule);
  const { columns, factsOf } = peopleFacts(person.appModeId, audience, tx.clock.now());
  const row = await one<PersonRow>(tx, sql`SELECT ${columns} FROM contact k WHERE k.id = ${person.id}`, { prepare: true });
  return !!row && audience.test(factsOf(row));
}

/** `contact.updated`, and the change to the workflows that watch it (attribute_changed triggers, audiences). */
const told = async (t: Taking, name: string) => {
  await emit(t.tx, 'contact.updated', {
    appModeId: t.person.appModeId,
    externalId: t.person.externalId,
    data: { external_id: t.person.externalId },
  });
  await noteChanged(t.tx, { appModeId: t.person.appModeId, contactId: t.person.id, externalId: t.person.externalId, names: [name] });
};

/** Sets (or, with null, removes) a custom attribute, held to its definition; a new name is defined unless the app has strict data. */
export async function setAttribute(t: Taking, name: string, value: string | number | boolean | null): Promise<Done> {
  if (COMPUTED_ATTRIBUTES.has(name) || STANDARD_FIELDS.has(name) || !isAttributeName(name))
    return { outcome: 'skipped', reason: 'attribute_not_settable', detail: `${name} is not a custom attribute` };
  const { tx, person } = t;
  const kept = person.attributes[name];
  if (value === null) {
    if (kept === undefined) return { outcome: 'skipped', reason: 'unchanged' };
    await one(
      tx,
      sql`UPDATE contact SET attributes = attributes - ${name}, updated_at = ${tx.clock.now()} WHERE id = ${person.id} RETURNING 1`,
    );
    await told(t, name);
    return { outcome: 'passed' };
  }
  const def = await one<{ type: AttributeType | null; strict: boolean }>(
    tx,
    sql`SELECT (SELECT d.type::text FROM attribute_definition d WHERE d.app_mode_id = m.id AND d.name = ${name}) AS type, m.strict_data AS strict
        FROM app_mode m WHERE m.id = ${person.appModeId}`,
  );
  let type = def?.type ?? null;
  if (!type) {
    if (def?.strict)
      return { outcome: 'skipped', reason: 'attribute_undefined', detail: `${name} is not defined and the app has strict data on` };
    const typed = typeOfValue(value);
    if ('problem' in typed) return { outcome: 'skipped', reason: 'wrong_type', detail: typed.problem };
    type = typed.type;
    await one(
      tx,
      sql`INSERT INTO attribute_definition (id, app_mode_id, name, type, needs_review) VALUES (${randomUUID()}, ${person.appModeId}, ${name}, ${type}::"AttributeType", true)
          ON CONFLICT (app_mode_id, name) DO NOTHING RETURNING 1`,
    );
  }
  const held = holdToType(type, value);
  if ('problem' in held) return { outcome: 'skipped', reason: 'wrong_type', detail: `${held.problem} (its type is ${type})` };
  if (JSON.stringify(kept) === JSON.stringify(held.value)) return { outcome: 'skipped', reason: 'unchanged' };
  await one(
    tx,
    sql`UPDATE contact SET attributes = attributes || jsonb_build_object(${name}::text, ${JSON.stringify(held.value)}::jsonb), updated_at = ${tx.clock.now()}
        WHERE id = ${person.id} RETURNING 1`,
  );
  await told(t, name);
  return { outcome: 'passed' };
}

/** Adds or removes a tag (a person holds at most MAX_LIST_ITEMS). */
export async function tagPerson(t: Taking, action: 'add' | 'remove', tag: string): Promise<Done> {
  const { tx, person } = t;
  const has = person.tags.includes(tag);
  if (action === 'add' ? has : !has) return { outcome: 'skipped', reason: 'unchanged' };
  if (action === 'add' && person.tags.length >= MAX_LIST_ITEMS)
    return { outcome: 'skipped', reason: 'too_many_tags', detail: `a person holds at most ${MAX_LIST_ITEMS} tags` };
  const tags = action === 'add' ? [...person.tags, tag] : person.tags.filter((x) => x !== tag);
  await one(tx, sql`UPDATE contact SET tags = ${tags}::text[], updated_at = ${tx.clock.now()} WHERE id = ${person.id} RETURNING 1`);
  await told(t, fieldName('tags'));
  return { outcome: 'passed' };
}
