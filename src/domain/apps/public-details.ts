import type { AppMode } from '../../generated/prisma/client.js';
import type { Ctx } from '../context.js';
import { notFound } from '../errors.js';
import { findAppModeByKey } from '../access/app-modes.js';

/** What anyone may know of an app: its face, which parts are on, its languages and mode, and the key browsers subscribe to pushes with. */
export async function publicAppDetails(ctx: Ctx, key: string): Promise<AppMode & { appName: string; webPushKey: string | null }> {
  const mode = await findAppModeByKey(ctx.svc, key);
  if (!mode || mode.archived) throw notFound('No app has this key.');
  const [app, vapid] = await Promise.all([
    ctx.db.app.findUniqueOrThrow({ where: { id: mode.appId } }),
    // Only the VAPID public key: the private one stays sealed.
    ctx.db.pushCredential.findUnique({
      where: { appModeId_provider: { appModeId: mode.id, provider: 'web' } },
      select: { publicKey: true },
    }),
  ]);
  return { ...mode, appName: app.name, webPushKey: vapid?.publicKey ?? null };
}
