import { randomUUID } from 'node:crypto';
import { sqlTransaction, type Ctx } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { hashServerKey, newServerKey, serverKeyHint } from './credentials.js';
import { exec, one, sql } from '../../db/sql.js';

// Raw SQL throughout, not Prisma: the `crm` key commands run without loading Prisma's client.

export const MAX_SERVER_KEYS = 20;

/** Every column of server_key as a ServerKey (Prisma's names), for a statement of raw SQL. */
export const SERVER_KEY_COLUMNS = sql`id, app_mode_id AS "appModeId", key_hash AS "keyHash", hint, created_at AS "createdAt", revoked_at AS "revokedAt"`;

/** Makes a server key for one mode; the raw key is returned once and only its hash is kept. */
export async function createServerKey(ctx: Ctx, appModeId: string): Promise<{ id: string; serverKey: string }> {
  return sqlTransaction(ctx, async (tx) => {
    // Lock the mode so two concurrent calls cannot both pass the count.
    const mode = await one<{ mode: 'live' | 'test' }>(tx, sql`SELECT mode::text AS mode FROM app_mode WHERE id = ${appModeId} FOR UPDATE`);
    if (!mode) throw notFound('No such app.');
    // A statement of its own, after the lock: it sees the keys another call committed meanwhile.
    const live = await one<{ n: number }>(
      tx,
      sql`SELECT count(*)::int AS n FROM server_key WHERE app_mode_id = ${appModeId} AND revoked_at IS NULL`,
    );
    if (live!.n >= MAX_SERVER_KEYS)
      throw conflict('server_key_limit', `An app mode has at most ${MAX_SERVER_KEYS} server keys; revoke one first.`);
    const serverKey = newServerKey(mode.mode);
    const id = randomUUID();
    await exec(
      tx,
      sql`INSERT INTO server_key (id, app_mode_id, key_hash, hint, created_at)
          VALUES (${id}, ${appModeId}, ${hashServerKey(serverKey)}, ${serverKeyHint(serverKey)}, ${new Date()})`,
    );
    return { id, serverKey };
  });
}

/** Revokes a key named by its id (staff) or by the key itself (operators). Revoking twice is safe. */
export async function revokeServerKey(ctx: Ctx, by: { id: string } | { serverKey: string }): Promise<{ id: string; appModeId: string }> {
  const where = 'id' in by ? sql`id = ${by.id}` : sql`key_hash = ${hashServerKey(by.serverKey)}`;
  // One statement: the key, revoked now unless it was already.
  const key = await one<{ id: string; appModeId: string }>(
    ctx,
    sql`WITH found AS (SELECT id, app_mode_id, revoked_at FROM server_key WHERE ${where}),
          revoked AS (UPDATE server_key s SET revoked_at = ${ctx.clock.now()} FROM found WHERE s.id = found.id AND found.revoked_at IS NULL)
        SELECT id, app_mode_id AS "appModeId" FROM found`,
  );
  if (!key) throw notFound('No such server key.');
  return key;
}
