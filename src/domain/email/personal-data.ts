import type { PersonalDataArea } from '../personal-data/registry.js';

// The emails sent to a person (email_send, with the links they clicked in email_click): erased with
// them, so every token of those emails then opens nothing (404). Test copies name a team member's
// address, never a person, and are not theirs.

export const emailData: PersonalDataArea = {
  name: 'email',
  tables: ['email_send', 'email_click'],
  async erase({ db }, { externalId, appModeIds }) {
    const where = { contact: { appModeId: { in: appModeIds }, externalId } };
    // The clicks go with their sends (ON DELETE CASCADE); counted first so the erase says how many.
    const clicks = await db.emailClick.count({ where: { send: where } });
    const { count } = await db.emailSend.deleteMany({ where });
    return { emailSends: count, emailClicks: clicks };
  },
};
