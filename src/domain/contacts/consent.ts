import { randomUUID } from 'node:crypto';
import type { Contact } from '../../generated/prisma/client.js';
import { transaction, type AppCaller, type Ctx, type GuestCaller, type TxCtx } from '../context.js';
import { applyConsentChoice, type ConsentChoice } from './consent-rule.js';
import { DomainError } from '../errors.js';
import { rows } from '../../db/sql.js';
import { touchContact } from './contacts.js';
import { subjectHash } from './erasure.js';

export interface Consent {
  offersByEmail: boolean;
  offersByPush: boolean;
  changedAt: Date | null;
}

export interface ConsentInput {
  offersByEmail?: boolean;
  offersByPush?: boolean;
  changedAt?: Date;
}

export function consentOf(
  c: Pick<Contact, 'offersByEmail' | 'offersByEmailChangedAt' | 'offersByPush' | 'offersByPushChangedAt'>,
): Consent {
  const times = [c.offersByEmailChangedAt, c.offersByPushChangedAt].filter((t): t is Date => t !== null);
  return {
    offersByEmail: c.offersByEmail === true,
    offersByPush: c.offersByPush === true,
    changedAt: times.length ? new Date(Math.max(...times.map((t) => t.getTime()))) : null,
  };
}

/** Applies a consent object to a contact by the rule; records every choice taken. */
export async function applyConsent(ctx: TxCtx<AppCaller>, contact: Contact, input: ConsentInput): Promise<Contact> {
  const { db: tx, caller: scope } = ctx;
  const source = scope.kind;
  const now = ctx.clock.now();
  const channels = [
    {
      channel: 'email' as const,
      value: input.offersByEmail,
      current: { value: contact.offersByEmail, changedAt: contact.offersByEmailChangedAt },
    },
    {
      channel: 'push' as const,
      value: input.offersByPush,
      current: { value: contact.offersByPush, changedAt: contact.offersByPushChangedAt },
    },
  ];
  const data: Record<string, unknown> = {};
  for (const { channel, value, current } of channels) {
    if (value === undefined) continue;
    const choice: ConsentChoice = input.changedAt ? { value, changedAt: input.changedAt } : { value };
    const next = applyConsentChoice(current, choice, now);
    if (!next) continue;
    const field = channel === 'email' ? 'offersByEmail' : 'offersByPush';
    data[field] = next.value;
    data[`${field}ChangedAt`] = next.changedAt;
    await tx.consentChange.create({
      data: {
        id: randomUUID(),
        appModeId: scope.appModeId,
        contactId: contact.id,
        channel,
        value: next.value,
        changedAt: next.changedAt,
        source,
        recordedAt: now,
      },
    });
  }
  if (!Object.keys(data).length) return contact;
  return tx.contact.update({ where: { id: contact.id }, data: { ...data, updatedAt: now } });
}

/** Nobody has agreed to anything: what a person erased within the block is answered. */
const NO_CONSENT: Consent = { offersByEmail: false, offersByPush: false, changedAt: null };

/**
 * The guest consent routes answer no 409: for a person erased within the block they answer that
 * nothing is agreed, and write nothing.
 */
async function asGuest(ctx: Ctx<GuestCaller>, then: (tx: TxCtx<GuestCaller>, contact: Contact) => Promise<Contact>): Promise<Consent> {
  const { externalId, sdk } = ctx.caller;
  try {
    // The contact's row held and read after the lock: choices of one person follow one another, each compared with the one before.
    return await transaction(ctx, async (tx) =>
      consentOf(await then(tx, (await touchContact(tx, externalId, { sdk, lock: true })).contact)),
    );
  } catch (err) {
    if (err instanceof DomainError && err.code === 'erased') return NO_CONSENT;
    throw err;
  }
}

const READ = `SELECT erased, offers_by_email, offers_by_email_changed_at, offers_by_push, offers_by_push_changed_at
  FROM crm_guest_consent($1, $2, $3, $4, $5, $6::timestamptz)`;

interface ReadRow {
  erased: boolean;
  offers_by_email: boolean | null;
  offers_by_email_changed_at: Date | null;
  offers_by_push: boolean | null;
  offers_by_push_changed_at: Date | null;
}

/**
 * The person's consent, by the same rules as `touchContact` (held against an erase and checked;
 * the contact made on first sight; the SDK recorded) in one statement, crm_guest_consent: one
 * round trip and no transaction of its own, and nothing written when nothing changed. In a
 * caller's transaction it runs there.
 */
export async function getGuestConsent(ctx: Ctx<GuestCaller>): Promise<Consent> {
  const { appId, appModeId, externalId, sdk } = ctx.caller;
  const values = [appId, appModeId, externalId, subjectHash(ctx.svc, appId, externalId), sdk ?? null, ctx.clock.now().toISOString()];
  const [row] = await rows<ReadRow>(ctx, { text: READ, values });
  if (row!.erased) return NO_CONSENT;
  const at = (t: Date | string | null) => (t === null ? null : new Date(t));
  return consentOf({
    offersByEmail: row!.offers_by_email,
    offersByEmailChangedAt: at(row!.offers_by_email_changed_at),
    offersByPush: row!.offers_by_push,
    offersByPushChangedAt: at(row!.offers_by_push_changed_at),
  });
}

/** The person chose in the app just now: their choice is the newest there is. */
export const putGuestConsent = (ctx: Ctx<GuestCaller>, offersByPush: boolean) =>
  asGuest(ctx, async (tx, contact) =>
    // A repeated choice is not kept: the one before stands, with when it was made.
    contact.offersByPush === offersByPush ? contact : applyConsent(tx, contact, { offersByPush, changedAt: tx.clock.now() }),
  );
