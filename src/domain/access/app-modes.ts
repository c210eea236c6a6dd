import type { AppMode } from '../../generated/prisma/client.js';
import type { Services } from '../context.js';
import { modeOfAppKey } from '../apps/credentials.js';
import { rows, sql } from '../../db/sql.js';

/** The app-mode an app key names, or undefined for no such key (from memory while change notices are heard). */
export async function findAppModeByKey(svc: Services, key: string | undefined): Promise<AppMode | undefined> {
  if (!key || !modeOfAppKey(key)) return undefined;
  return svc.credentials.appModeByKey(key, () => svc.db.appMode.findUnique({ where: { appKey: key } }));
}

/** Whether some app-mode lists this origin: enough to answer a preflight, which names no app. */
export async function isAnyWebOrigin(svc: Services, origin: string): Promise<boolean> {
  return svc.credentials.anyWebOrigin(origin, async () => {
    const found = await rows<unknown>(svc, sql`SELECT 1 FROM app_mode WHERE web_origins @> ARRAY[${origin}]::text[] LIMIT 1`);
    return found.length > 0;
  });
}
