import { randomUUID } from 'node:crypto';
import type { Contact, Prisma } from '../../generated/prisma/client.js';
import { transaction, type AppCaller, type Ctx, type TxCtx } from '../context.js';
import { invalid, type FieldError } from '../errors.js';
import {
  COMPUTED_ATTRIBUTES,
  holdToType,
  isAttributeName,
  STANDARD_FIELDS,
  typeOfValue,
  type AttributeType,
  type AttributeValue,
} from './attributes.js';
import { FIELD_NAMES, fieldName, noteChanged } from './changes.js';
import { applyConsent, type ConsentInput } from './consent.js';
import { touchContact } from './contacts.js';
import { emit } from '../outbox.js';
import { CONTACT_CREATED } from './live.js';

// Identify: PUT /server/v1/contacts/{external_id}. Only sent fields change; empty clears; an
// attribute sent null is removed. The contact is made the first time. One transaction.

export interface IdentifyInput {
  displayName?: string | null;
  email?: string | null;
  signedUpAt?: Date | null;
  language?: string | null;
  timeZone?: string | null;
  provider?: string | null;
  consent?: ConsentInput;
  attributes?: Record<string, unknown>;
}

const FIELDS = ['displayName', 'email', 'signedUpAt', 'language', 'timeZone', 'provider'] as const;

export async function identify(ctx: Ctx<AppCaller>, externalId: string, input: IdentifyInput): Promise<{ created: boolean }> {
  const now = ctx.clock.now();
  return transaction(ctx, async (ttx) => {
    const tx = ttx.db;
    const { contact: before, created } = await touchContact(ttx, externalId, { lock: true });
    const attributes = await typedAttributes(ttx, input.attributes ?? {});

    const data: Prisma.ContactUpdateInput = {};
    // Addresses are kept lowercased, so one person's email compares equal however it was typed.
    const fields = { ...input, email: input.email?.toLowerCase() ?? input.email };
    for (const f of FIELDS) {
      const v = fields[f];
      if (v !== undefined && !same(before[f], v)) (data as Record<string, unknown>)[f] = v;
    }
    const kept = { ...(before.attributes as Record<string, AttributeValue>) };
    const changed = Object.keys(data).map((f) => fieldName(FIELD_NAMES[f]!));
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null ? Object.hasOwn(kept, name) : !same(kept[name], value)) changed.push(name);
      if (value === null) delete kept[name];
      else kept[name] = value;
    }
    if (changed.some((n) => !n.startsWith('#'))) data.attributes = kept;
    let after: Contact = Object.keys(data).length
      ? await tx.contact.update({ where: { id: before.id }, data: { ...data, updatedAt: now } })
      : before;
    if (input.consent) after = await applyConsent(ttx, after, input.consent);

    // What workflows watch of the change (attribute_changed triggers, audiences), in this transaction.
    await noteChanged(ttx, { appModeId: ctx.caller.appModeId, contactId: before.id, externalId, names: changed });
    if (created || after !== before) {
      await emit(ttx, created ? CONTACT_CREATED : 'contact.updated', {
        appModeId: ctx.caller.appModeId,
        externalId,
        data: { external_id: externalId },
      });
    }
    return { created };
  });
}

/** Every attribute held to its definition; unknown ones defined on first sight unless the app has strict data. */
async function typedAttributes(ctx: TxCtx<AppCaller>, sent: Record<string, unknown>): Promise<Record<string, AttributeValue | null>> {
  const { db: tx, caller: scope } = ctx;
  const errors: FieldError[] = [];
  const names = Object.keys(sent);
  const defs = new Map(
    (await tx.attributeDefinition.findMany({ where: { appModeId: scope.appModeId, name: { in: names } } })).map((d) => [
      d.name,
      d.type as AttributeType,
    ]),
  );
  const fresh: { name: string; type: AttributeType }[] = [];
  for (const name of names) {
    const field = `attributes.${name}`;
    const value = sent[name];
    if (COMPUTED_ATTRIBUTES.has(name)) errors.push({ field, message: 'is computed by the service and cannot be set' });
    else if (STANDARD_FIELDS.has(name)) errors.push({ field, message: `is a contact field: send it as ${name}, outside attributes` });
    else if (!isAttributeName(name))
      errors.push({ field, message: 'names are letters, digits, _ . -, starting with a letter, at most 100 characters' });
    else if (value !== null && !defs.has(name)) {
      if (scope.settings.strictData) errors.push({ field, message: 'is not defined for this app, which has strict data on' });
      else {
        const t = typeOfValue(value);
        if ('problem' in t) errors.push({ field, message: t.problem });
        else fresh.push({ name, type: t.type });
      }
    }
  }
  if (fresh.length && !errors.length) {
    await tx.attributeDefinition.createMany({
      data: fresh.map((f) => ({ id: randomUUID(), appModeId: scope.appModeId, name: f.name, type: f.type, needsReview: true })),
      skipDuplicates: true,
    });
    // A concurrent request may have defined the same name first: its type holds.
    for (const d of await tx.attributeDefinition.findMany({
      where: { appModeId: scope.appModeId, name: { in: fresh.map((f) => f.name) } },
    }))
      defs.set(d.name, d.type as AttributeType);
  }

  const out: Record<string, AttributeValue | null> = {};
  for (const name of names) {
    const value = sent[name];
    const type = defs.get(name);
    if (value === null || !type) {
      if (value === null) out[name] = null;
      continue;
    }
    const held = holdToType(type, value);
    if ('problem' in held) errors.push({ field: `attributes.${name}`, message: `${held.problem} (its type is ${type})` });
    else out[name] = held.value;
  }
  if (errors.length) throw invalid(errors);
  return out;
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
