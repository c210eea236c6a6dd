import type { PersonalDataArea } from '../personal-data/registry.js';

// A person's notices for the export's `notices`, newest first; erased in both modes.

export const noticeData: PersonalDataArea = {
  name: 'notices',
  tables: ['notice'],
  async exportOf({ db }, { appModeId, externalId }) {
    const notices = await db.notice.findMany({
      where: { appModeId, contact: { appModeId, externalId } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    if (!notices.length) return undefined;
    return {
      notices: notices.map((n) => ({
        id: n.id,
        title: n.title,
        body: n.body,
        link: n.link,
        topic: n.topicKey,
        source: n.source,
        createdAt: n.createdAt.toISOString(),
        readAt: n.readAt?.toISOString() ?? null,
      })),
    };
  },
  async erase({ db: tx }, { externalId, appModeIds }) {
    const { count: notices } = await tx.notice.deleteMany({
      where: { appModeId: { in: appModeIds }, contact: { appModeId: { in: appModeIds }, externalId } },
    });
    return { notices };
  },
};
