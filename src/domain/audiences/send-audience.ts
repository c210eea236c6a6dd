import { holdToType, type AttributeType, type AttributeValue } from '../contacts/attributes.js';
import type { Ctx } from '../context.js';
import { invalid, invalidField, notFound, type FieldError } from '../errors.js';
import { sql, type Sql } from '../../db/sql.js';

// Who a send goes to (a push, an email): one person (by external id), every person of the app-mode,
// or the people whose custom attributes hold given values: each condition names a defined attribute
// and a value of its type, a list attribute matching when it contains the value, and all conditions
// must hold. In-app messages have the full audience rules (rules.ts).

export const MAX_CONDITIONS = 10;

/** As kept with a send (push_send.audience, email_version.audience); a one-person send's person erased since is kept as `{ erased: true }`. */
export type SendAudience = { everyone: true } | { externalId: string } | { attributes: Record<string, AttributeValue> } | { erased: true };

export interface AudienceInput {
  externalId?: string | null;
  everyone?: boolean | null;
  attributes?: { name: string; value: unknown }[] | null;
}

/** The audience as kept, or refused naming the field (`audience`, `audience.attributes.<i>.name` or `.value`). */
export async function readAudience(ctx: Ctx, appModeId: string, input: AudienceInput): Promise<SendAudience> {
  const given = [input.externalId != null, input.everyone === true, input.attributes != null].filter(Boolean).length;
  if (given !== 1) throw invalidField('audience', 'name exactly one of externalId (one person), everyone: true, or attributes (a filter)');
  if (input.externalId != null) {
    const found = await ctx.db.contact.count({ where: { appModeId, externalId: input.externalId } });
    if (!found) throw notFound('No such contact.');
    return { externalId: input.externalId };
  }
  if (input.everyone) return { everyone: true };
  const conditions = input.attributes!;
  if (!conditions.length || conditions.length > MAX_CONDITIONS)
    throw invalidField('audience.attributes', `must hold 1 to ${MAX_CONDITIONS} conditions`);
  const defined = new Map(
    (
      await ctx.db.attributeDefinition.findMany({
        where: { appModeId, name: { in: conditions.map((c) => c.name) } },
        select: { name: true, type: true },
      })
    ).map((d) => [d.name, d.type as AttributeType]),
  );
  const errors: FieldError[] = [];
  const attributes: Record<string, AttributeValue> = {};
  conditions.forEach((c, i) => {
    const type = defined.get(c.name);
    if (!type) return errors.push({ field: `audience.attributes.${i}.name`, message: 'is not an attribute of this app' });
    if (c.name in attributes) return errors.push({ field: `audience.attributes.${i}.name`, message: 'is named twice' });
    // A list attribute matches when it holds the value: one string.
    const held = holdToType(type, type === 'list' ? [c.value] : c.value);
    if ('problem' in held)
      return errors.push({
        field: `audience.attributes.${i}.value`,
        message: type === 'list' ? 'must be a string (an item the list holds)' : `${held.problem} (its type is ${type})`,
      });
    attributes[c.name] = held.value;
  });
  if (errors.length) throw invalid(errors);
  return { attributes };
}

/** The audience as a condition on the contact `k`. Attribute values are held to their type, so containment is equality (and membership for lists). */
export function audienceSql(audience: SendAudience): Sql {
  if ('everyone' in audience) return sql`TRUE`;
  if ('erased' in audience) return sql`FALSE`;
  if ('externalId' in audience) return sql`k.external_id = ${audience.externalId}`;
  return sql`k.attributes @> ${JSON.stringify(audience.attributes)}::jsonb`;
}
