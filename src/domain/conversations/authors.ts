import type { Contact, PartAuthorKind } from '../../generated/prisma/client.js';

// Who wrote a part, as it is kept with the part: the name (and picture) as they were then.

export interface Author {
  kind: PartAuthorKind;
  /** The contact's, staff user's or bot's id; none for the service itself. */
  id: string | null;
  name: string;
  avatarUrl?: string | null;
}

/** The person, by the name the app gave them (Identify), else their email, else "User". */
export const contactAuthor = (contact: Pick<Contact, 'id' | 'displayName' | 'email'>): Author => ({
  kind: 'contact',
  id: contact.id,
  name: contact.displayName ?? contact.email ?? 'User',
});

export const staffAuthor = (staff: { id: string; name: string; avatarUrl?: string | null }): Author => ({
  kind: 'staff',
  id: staff.id,
  name: staff.name,
  avatarUrl: staff.avatarUrl ?? null,
});
