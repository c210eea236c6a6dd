import type { Prisma } from '../../generated/prisma/client.js';
import { invalidField } from '../errors.js';

// How the staff API names one contact of an app-mode, and the order of their past conversations.

/**
 * The contact a staff read names, in the app-mode it was allowed to read: by the service's id or
 * the customer's own, one of the two. Not a person being erased (beingErased): as gone already.
 * A contact of another mode or app is as unknown.
 */
export function staffContactWhere(appModeId: string, by: { id?: string | null; externalId?: string | null }): Prisma.ContactWhereInput {
  if (!by.id === !by.externalId) throw invalidField(by.id ? 'externalId' : 'id', 'give either id or externalId, not both');
  return { appModeId, eraseRequestedAt: null, ...(by.id ? { id: by.id } : { externalId: by.externalId! }) };
}

/** A person's conversations as staff list them: the latest activity first (the inbox's order). */
export const PAST_CONVERSATIONS_ORDER: Prisma.ConversationOrderByWithRelationInput[] = [{ lastActivityAt: 'desc' }, { id: 'desc' }];
