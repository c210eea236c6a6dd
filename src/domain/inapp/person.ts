import type { Contact } from '../../generated/prisma/client.js';
import { touchContact } from '../contacts/contacts.js';
import { DomainError } from '../errors.js';
import type { GuestCaller, TxCtx } from '../context.js';

/**
 * The caller's contact (made on first sight, held against an erase for the transaction), or
 * undefined for a person erased within the block: the in-app routes have no 409 and keep nothing.
 */
export async function personOf(tx: TxCtx<GuestCaller>): Promise<Contact | undefined> {
  try {
    return (await touchContact(tx, tx.caller.externalId, { sdk: tx.caller.sdk })).contact;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'erased') return undefined;
    throw err;
  }
}
