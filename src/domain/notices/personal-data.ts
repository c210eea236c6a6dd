import type { Notice } from '../../generated/prisma/client.js';
import { keyset, pagedMember, type PersonalDataArea } from '../personal-data/registry.js';

// A person's notices for the export's `notices`, newest first, read a page at a time while the
// export is written; erased in both modes.

export const noticeData: PersonalDataArea = {
  name: 'notices',
  tables: ['notice'],
  async exportOf({ db }, { appModeId, externalId }) {
    const notices = await pagedMember(
      (last: Notice | undefined, take) =>
        db.notice.findMany({
          where: { appModeId, contact: { appModeId, externalId } },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          ...keyset(last && { id: last.id }, take),
        }),
      (n) => ({
        id: n.id,
        title: n.title,
        body: n.body,
        link: n.link,
        topic: n.topicKey,
        source: n.source,
        createdAt: n.createdAt.toISOString(),
        readAt: n.readAt?.toISOString() ?? null,
      }),
    );
    return notices && { notices };
  },
  async erase({ db: tx }, { externalId, appModeIds }) {
    const { count: notices } = await tx.notice.deleteMany({
      where: { appModeId: { in: appModeIds }, contact: { appModeId: { in: appModeIds }, externalId } },
    });
    return { notices };
  },
};
