import { exec, sql } from '../../src/db/sql.js';
import type { TestServer } from './server.js';

// Many parts in a conversation at once, written straight into the database (thousands in well
// under a second, where thousands of posts would take minutes): for the tests of answers that
// grow with a conversation.

/**
 * Appends `count` parts after the conversation's last one: the person's messages of `chars`
 * characters (a paragraph each), with a team note (internal) every `noteEvery`th when asked. The
 * conversation's seqs, activity and preview move as addPart moves them.
 */
export async function seedParts(
  t: TestServer,
  conversationId: string,
  count: number,
  opts: { chars?: number; noteEvery?: number } = {},
): Promise<void> {
  const chars = opts.chars ?? 20;
  const noteEvery = opts.noteEvery ?? 0;
  await exec(
    t.ctx,
    sql`
    WITH c AS (SELECT id, app_mode_id, last_seq FROM conversation WHERE id = ${conversationId}),
    n AS (SELECT g AS i, rpad('part ' || g || ' ', ${chars}, 'x') AS words FROM generate_series(1, ${count}) g)
    INSERT INTO conversation_part (id, app_mode_id, conversation_id, seq, kind, internal, author_kind, author_id, author_name, text, blocks, created_at)
    SELECT gen_random_uuid()::text, c.app_mode_id, c.id, c.last_seq + n.i,
      (CASE WHEN ${noteEvery} > 0 AND n.i % ${noteEvery} = 0 THEN 'note' ELSE 'message' END)::"PartKind",
      ${noteEvery} > 0 AND n.i % ${noteEvery} = 0,
      (CASE WHEN ${noteEvery} > 0 AND n.i % ${noteEvery} = 0 THEN 'staff' ELSE 'contact' END)::"PartAuthorKind",
      NULL, 'User', n.words,
      jsonb_build_array(jsonb_build_object('type', 'paragraph', 'spans', jsonb_build_array(jsonb_build_object('text', n.words)))),
      now()::timestamp(3)
    FROM c, n`,
  );
  await exec(
    t.ctx,
    sql`
    UPDATE conversation c SET last_seq = p.last, visible_seq = p.visible, last_activity_at = now(), visible_activity_at = now(), updated_at = now()
    FROM (SELECT max(seq) AS last, max(seq) FILTER (WHERE NOT internal) AS visible FROM conversation_part WHERE conversation_id = ${conversationId}) p
    WHERE c.id = ${conversationId}`,
  );
}
