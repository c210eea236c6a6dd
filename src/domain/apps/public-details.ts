import type { AppMode } from '../../generated/prisma/client.js';
import type { Ctx } from '../context.js';
import { notFound } from '../errors.js';
import { findAppModeByKey } from '../access/app-modes.js';

/** What anyone may know of an app: its face, which parts are on, its languages and mode. */
export async function publicAppDetails(ctx: Ctx, key: string): Promise<AppMode & { appName: string }> {
  const mode = await findAppModeByKey(ctx.svc, key);
  if (!mode || mode.archived) throw notFound('No app has this key.');
  const app = await ctx.db.app.findUniqueOrThrow({ where: { id: mode.appId } });
  return { ...mode, appName: app.name };
}
