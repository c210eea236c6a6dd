import { exec, sql } from '../db/sql.js';
import type { TxCtx } from './context.js';

// Advisory locks held until the caller's transaction ends: one kind per thing whose changes must
// follow one another, hashed one way (crm_erased, in the migrations, takes the `erase` kind's shared
// lock on the same hash).

export const LOCK_KINDS = [
  /** An app-mode's declared link sets (`appModeId`): the digests and app versions kept stay within their bounds. */
  'app-links',
  /** The attachments waiting to be sent in one app-mode (`appModeId`): each person's and the app-mode's counts and bytes hold. */
  'attachments',
  /** A person's push devices (`contactId`): their count holds. */
  'devices',
  /** An app-mode's emails (`appModeId`): their count holds. */
  'email-messages',
  /** A person being erased (`appId:externalId`): writes about them in flight finish first. */
  'erase',
  /** An app-mode's help bot: one change of its settings at a time. */
  'help_bot',
  /** One inbound email (`appModeId:providerId`): posted twice at once, it is threaded once. */
  'inbound-email',
  /** Apps made by an operator with no workspace named (id `any`): two such runs agree on one workspace. */
  'operator-app-workspace',
  /** A thing whose outbox rows subscribers take as its state (`topic:key`): rows in commit order. */
  'outbox',
  /** An app-mode's preference topics: one change of the list at a time. */
  'preference-topics',
  /** A contact's preferences: each change sees the one before. */
  'preferences',
  /** A workspace's teams. */
  'team',
  /** An app-mode's ticket types. */
  'ticket_types',
  /** A webhook endpoint's log of tries (`endpointId`): it holds the last LOG_TRIES, never more. */
  'webhook-tries',
  /** An app-mode's workflows (`appModeId`): their count holds. */
  'workflows',
] as const;
export type LockKind = (typeof LOCK_KINDS)[number];

/** Waits for, then holds until the transaction ends, the lock of `kind` on `id`. */
export async function lock(tx: TxCtx, kind: LockKind, id: string): Promise<void> {
  await exec(tx, sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${kind}:${id}`}, 0))`);
}
