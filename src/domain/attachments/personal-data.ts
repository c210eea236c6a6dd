import type { PersonalDataArea } from '../personal-data/registry.js';
import { attachmentKey } from './limits.js';

// A person's pictures, sent or waiting, in every mode of the app, and their bytes in the blob store.
// The export has no member for them: the pictures a person sent are in their conversations.

export const attachmentData: PersonalDataArea = {
  name: 'attachments',
  tables: ['attachment'],
  async erase({ db, svc }, { externalId, appModeIds }) {
    const rows = await db.$queryRaw<{ id: string; app_mode_id: string }[]>`
      DELETE FROM attachment WHERE app_mode_id = ANY(${appModeIds}::text[]) AND external_id = ${externalId} RETURNING id, app_mode_id`;
    // Removed now, not at commit: if this transaction rolls back, the erase runs again and finds the rows still there.
    await svc.blobs.deleteMany(rows.map((r) => attachmentKey(r.app_mode_id, r.id)));
    return { attachments: rows.length };
  },
};
