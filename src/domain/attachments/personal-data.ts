import type { PersonalDataArea } from '../personal-data/registry.js';
import { attachmentKey } from './limits.js';
import { rows, sql } from '../../db/sql.js';

// A person's pictures, sent or waiting, in every mode of the app, and their bytes in the blob store;
// and the team's pictures in (or made for) the person's conversations, which go with those
// conversations' parts. Erased before the conversations (areas.ts), which name the team's.
// The export has no member for them: the pictures a person sent are in their conversations.

export const attachmentData: PersonalDataArea = {
  name: 'attachments',
  tables: ['attachment'],
  async erase(ctx, { externalId, appModeIds }) {
    const removed = await rows<{ id: string; app_mode_id: string }>(
      ctx,
      sql`
      DELETE FROM attachment WHERE app_mode_id = ANY(${appModeIds}::text[])
        AND (external_id = ${externalId} OR conversation_id IN (
          SELECT c.id FROM conversation c JOIN contact ct ON ct.id = c.contact_id
          WHERE ct.app_mode_id = ANY(${appModeIds}::text[]) AND ct.external_id = ${externalId}))
      RETURNING id, app_mode_id`,
    );
    // Removed now, not at commit: if this transaction rolls back, the erase runs again and finds the rows still there.
    await ctx.svc.blobs.deleteMany(removed.map((r) => attachmentKey(r.app_mode_id, r.id)));
    return { attachments: removed.length };
  },
};
