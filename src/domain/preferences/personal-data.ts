import type { PreferenceChange } from '../../generated/prisma/client.js';
import type { PersonalDataArea } from '../personal-data/registry.js';

// A person's preferences for the export's `subscriptions`: each topic and channel they chose on,
// and their all-off switch, each as it is now with every change to it (the words shown, who made
// it, when), oldest first. The person's rows go with an erase in both modes.

const historyOf = (changes: PreferenceChange[]) =>
  changes.map((c) => ({ value: c.value, wording: c.wording, source: c.source, changedAt: c.changedAt.toISOString() }));

export const preferenceData: PersonalDataArea = {
  name: 'preferences',
  tables: ['preference_choice', 'preference_state', 'preference_change'],
  async exportOf({ db }, { appModeId, externalId }) {
    const contact = await db.contact.findUnique({
      where: { appModeId_externalId: { appModeId, externalId } },
      select: {
        preferenceState: true,
        preferenceChoices: { include: { topic: { select: { key: true } } } },
        preferenceChanges: { orderBy: [{ changedAt: 'asc' }, { id: 'asc' }] },
      },
    });
    if (!contact || (!contact.preferenceState && !contact.preferenceChoices.length)) return undefined;
    const changes = contact.preferenceChanges;
    const state = contact.preferenceState;
    const choices = contact.preferenceChoices.sort((a, b) => a.topic.key.localeCompare(b.topic.key) || a.channel.localeCompare(b.channel));
    return {
      subscriptions: [
        ...(state
          ? [
              {
                kind: 'all_off',
                allOff: state.allOff,
                changedAt: state.changedAt.toISOString(),
                history: historyOf(changes.filter((c) => c.kind === 'all_off')),
              },
            ]
          : []),
        ...choices.map((c) => ({
          kind: 'choice',
          topic: c.topic.key,
          channel: c.channel,
          subscribed: c.subscribed,
          changedAt: c.changedAt.toISOString(),
          history: historyOf(changes.filter((h) => h.kind === 'choice' && h.topicKey === c.topic.key && h.channel === c.channel)),
        })),
      ],
    };
  },
  async erase({ db: tx }, { externalId, appModeIds }) {
    const of = { appModeId: { in: appModeIds }, contact: { appModeId: { in: appModeIds }, externalId } };
    const { count: preferenceChanges } = await tx.preferenceChange.deleteMany({ where: of });
    const { count: preferenceChoices } = await tx.preferenceChoice.deleteMany({ where: of });
    const { count: preferenceStates } = await tx.preferenceState.deleteMany({ where: of });
    return { preferenceChoices, preferenceStates, preferenceChanges };
  },
};
