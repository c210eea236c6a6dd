import type { PreferenceChannel, PreferenceChangeKind } from '../../generated/prisma/client.js';
import type { Ctx } from '../context.js';
import { keyset, pagedRows, type PersonalDataArea } from '../personal-data/registry.js';

// A person's preferences for the export's `subscriptions`: each topic and channel they chose on,
// and their all-off switch, each as it is now with every change to it (the words shown, who made
// it, when), oldest first, read a page at a time while the export is written. The person's rows go
// with an erase in both modes.

/** Every change of one switch (the all-off, or a topic and channel) of the contact, oldest first. */
const historyOf = (
  { db }: Ctx,
  contactId: string,
  kind: PreferenceChangeKind,
  topicKey: string | null,
  channel: PreferenceChannel | null,
) =>
  pagedRows(
    (last: { id: string } | undefined, take) =>
      db.preferenceChange.findMany({
        where: kind === 'all_off' ? { contactId, kind } : { contactId, kind, topicKey, channel },
        orderBy: [{ changedAt: 'asc' }, { id: 'asc' }],
        ...keyset(last && { id: last.id }, take),
      }),
    (c) => ({ value: c.value, wording: c.wording, source: c.source, changedAt: c.changedAt.toISOString() }),
  );

export const preferenceData: PersonalDataArea = {
  name: 'preferences',
  tables: ['preference_choice', 'preference_state', 'preference_change'],
  async exportOf(ctx, { appModeId, externalId }) {
    const contact = await ctx.db.contact.findUnique({
      where: { appModeId_externalId: { appModeId, externalId } },
      select: { id: true, preferenceState: true, preferenceChoices: { include: { topic: { select: { key: true } } } } },
    });
    if (!contact || (!contact.preferenceState && !contact.preferenceChoices.length)) return undefined;
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
                history: historyOf(ctx, contact.id, 'all_off', null, null),
              },
            ]
          : []),
        ...choices.map((c) => ({
          kind: 'choice',
          topic: c.topic.key,
          channel: c.channel,
          subscribed: c.subscribed,
          changedAt: c.changedAt.toISOString(),
          history: historyOf(ctx, contact.id, 'choice', c.topic.key, c.channel),
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
