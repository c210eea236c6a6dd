import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.js';
import { conflict, invalidField, notFound } from '../errors.js';
import { COMPUTED_ATTRIBUTES, isAttributeName, STANDARD_FIELDS, type AttributeType } from './attributes.js';

// Staff look after an app's attribute definitions: those made on first sight wait for review,
// and staff may declare one before any data carries it. A type, once given, never changes.

/** Marks a definition made on first sight as looked at. */
export async function markAttributeReviewed(ctx: Ctx, appModeId: string, name: string): Promise<void> {
  const { count } = await ctx.db.attributeDefinition.updateMany({ where: { appModeId, name }, data: { needsReview: false } });
  if (!count) throw notFound('No such attribute.');
}

/** Declares an attribute; declaring one that exists with the same type changes nothing. */
export async function defineAttribute(ctx: Ctx, appModeId: string, name: string, type: AttributeType): Promise<void> {
  // The same rules Identify holds attribute names to.
  if (COMPUTED_ATTRIBUTES.has(name)) throw invalidField('name', 'is computed by the service and cannot be defined');
  if (STANDARD_FIELDS.has(name)) throw invalidField('name', 'is a contact field, not a custom attribute');
  if (!isAttributeName(name))
    throw invalidField('name', 'names are letters, digits, _ . -, starting with a letter, at most 100 characters');

  // Made unless present, then read: a concurrent Identify may have defined it first, and its type holds.
  await ctx.db.attributeDefinition.createMany({
    data: [{ id: randomUUID(), appModeId, name, type, needsReview: false, createdAt: ctx.clock.now() }],
    skipDuplicates: true,
  });
  const current = await ctx.db.attributeDefinition.findUniqueOrThrow({ where: { appModeId_name: { appModeId, name } } });
  if (current.type !== type) throw conflict('attribute_type_fixed', `${name} is ${current.type}; an attribute's type is never changed.`);
}
