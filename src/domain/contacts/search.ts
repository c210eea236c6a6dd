import type { Ctx } from '../context.js';
import { invalidField } from '../errors.js';
import { decodeCursor, pageOf, pageSize } from '../paging.js';
import { empty, rows, sql } from '../../db/sql.js';

// The staff contact list: most recently updated first, optionally narrowed to contacts whose
// external id, email or display name contains the search text, in any case.

export const MAX_SEARCH = 200;

export interface ContactSearch {
  search?: string | null;
  first?: number | null;
  after?: string | null;
}

/** One page of contact ids in list order, each with its cursor; the caller reads the contacts with what it needs. */
export async function searchContacts(
  ctx: Ctx,
  appModeId: string,
  opts: ContactSearch,
): Promise<{ ids: string[]; cursors: string[]; nextCursor: string | null }> {
  const size = pageSize(opts.first);
  const text = opts.search?.trim() ?? '';
  if (text.length > MAX_SEARCH) throw invalidField('search', `must be at most ${MAX_SEARCH} characters`);
  const pattern = `%${text.replace(/[\\%_]/g, '\\$&')}%`;
  const [at, id] = opts.after ? decodeCursor(opts.after, 'after', ['time', 'text']) : [];
  // The cursor keeps updated_at as the column's own text, so no time zone comes between.
  const found = await rows<{ id: string; at: string }>(
    ctx,
    sql`
    SELECT id, to_char(updated_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS at FROM contact
    WHERE app_mode_id = ${appModeId}
      ${text ? sql`AND (external_id ILIKE ${pattern} OR email ILIKE ${pattern} OR display_name ILIKE ${pattern})` : empty}
      ${opts.after ? sql`AND (updated_at, id) < (${at}::timestamp, ${id})` : empty}
    ORDER BY updated_at DESC, id DESC
    LIMIT ${size + 1}`,
  );
  const page = pageOf(found, size, (r) => [r.at, r.id]);
  return { ids: page.items.map((r) => r.id), cursors: page.cursors, nextCursor: page.nextCursor };
}
