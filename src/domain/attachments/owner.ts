import { sql, type Sql } from '../../db/sql.js';

/**
 * Who made an attachment, and so the only one who may name it in a part: a user of the app-mode
 * (the messenger's routes), or a team member, for a reply or note in one conversation (the staff
 * API). Each may hold as much waiting to be sent (limits.ts); the sweep and the upload treat both alike.
 */
export type AttachmentOwner =
  { appModeId: string; externalId: string } | { appModeId: string; staffUserId: string; conversationId: string };

/** The attachment rows of this owner (of any app-mode: the caller names the app-mode beside it). */
export const ownedBy = (owner: AttachmentOwner): Sql =>
  'externalId' in owner ? sql`external_id = ${owner.externalId}` : sql`staff_user_id = ${owner.staffUserId}`;

/** Whether a row read with its owner columns is this owner's (a team member's, of the same conversation too). */
export function ownerOf(
  owner: AttachmentOwner,
  row: { external_id: string | null; staff_user_id: string | null; conversation_id: string | null },
): 'yes' | 'no' | 'another conversation' {
  if ('externalId' in owner) return row.external_id === owner.externalId ? 'yes' : 'no';
  if (row.staff_user_id !== owner.staffUserId) return 'no';
  return row.conversation_id === owner.conversationId ? 'yes' : 'another conversation';
}
