import type { PersonalDataArea } from '../personal-data/registry.js';

// Kept mail names its recipients, and mail to contacts (email messages, preference links) goes
// through the same table: erasing a person removes the mail their app's workspace sent to the
// contact's address (matched without regard to case), whoever else it also went to. It runs before
// the contact is erased, since the contact holds the address; mail to an address the contact no
// longer has is not found. The export has no member for it (the email area's receipts will be one).

export const mailData: PersonalDataArea = {
  name: 'mail',
  tables: ['outgoing_mail', 'outgoing_mail_recipient'],
  async erase({ db }, { externalId, appModeIds }) {
    const contacts = await db.contact.findMany({
      where: { appModeId: { in: appModeIds }, externalId, email: { not: null } },
      select: { email: true, appMode: { select: { app: { select: { workspaceId: true } } } } },
    });
    const emails = [...new Set(contacts.map((c) => c.email!))];
    if (!emails.length) return { mail: 0 };
    const workspaceIds = [...new Set(contacts.map((c) => c.appMode.app.workspaceId))];
    const { count } = await db.outgoingMail.deleteMany({
      where: { workspaceId: { in: workspaceIds }, recipients: { some: { email: { in: emails, mode: 'insensitive' } } } },
    });
    return { mail: count };
  },
};
