import { randomUUID } from 'node:crypto';
import { transaction, type Ctx } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { hashServerKey, newServerKey, serverKeyHint } from './credentials.js';
import { rows, sql } from '../../db/sql.js';

export const MAX_SERVER_KEYS = 20;

/** Makes a server key for one mode; the raw key is returned once and only its hash is kept. */
export async function createServerKey(ctx: Ctx, appModeId: string): Promise<{ id: string; serverKey: string }> {
  return transaction(ctx, async (inTx) => {
    const tx = inTx.db;
    // Lock the mode so two concurrent calls cannot both pass the count.
    const [mode] = await rows<{ mode: 'live' | 'test' }>(inTx, sql`SELECT mode FROM app_mode WHERE id = ${appModeId} FOR UPDATE`);
    if (!mode) throw notFound('No such app.');
    const live = await tx.serverKey.count({ where: { appModeId, revokedAt: null } });
    if (live >= MAX_SERVER_KEYS)
      throw conflict('server_key_limit', `An app mode has at most ${MAX_SERVER_KEYS} server keys; revoke one first.`);
    const serverKey = newServerKey(mode.mode);
    const id = randomUUID();
    await tx.serverKey.create({ data: { id, appModeId, keyHash: hashServerKey(serverKey), hint: serverKeyHint(serverKey) } });
    return { id, serverKey };
  });
}

/** Revokes a key named by its id (staff) or by the key itself (operators). Revoking twice is safe. */
export async function revokeServerKey(ctx: Ctx, by: { id: string } | { serverKey: string }): Promise<{ id: string; appModeId: string }> {
  const where = 'id' in by ? { id: by.id } : { keyHash: hashServerKey(by.serverKey) };
  const key = await ctx.db.serverKey.findUnique({ where });
  if (!key) throw notFound('No such server key.');
  if (!key.revokedAt) await ctx.db.serverKey.update({ where: { id: key.id }, data: { revokedAt: ctx.clock.now() } });
  return { id: key.id, appModeId: key.appModeId };
}
