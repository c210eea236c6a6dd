import type { Services } from '../domain/context.js';
import type { AppMode } from '../generated/prisma/client.js';

// How the demo made on the first start is found again: by its names (demo.ts makes them).

export const DEMO_WORKSPACE = 'Demo workspace';
export const DEMO_APP = 'Demo app';
/** The demo person whose conversations the README's tour reads (crm token <app key> --sub ada), signed in on the demo site. */
export const DEMO_CONTACT = 'ada';

const demoLive = { mode: 'live', archived: false, app: { name: DEMO_APP, workspace: { name: DEMO_WORKSPACE } } } as const;

/** The demo app's live app key when the demo is here and its help center is on; else undefined. */
export async function demoHelpAppKey(svc: Services): Promise<string | undefined> {
  const mode = await svc.db.appMode.findFirst({
    where: { ...demoLive, helpOn: true },
    select: { appKey: true },
    orderBy: { app: { createdAt: 'asc' } },
  });
  return mode?.appKey;
}

/** The demo app's live mode when the demo is here (the demo site's app); else undefined. */
export async function demoLiveMode(svc: Services): Promise<AppMode | undefined> {
  const mode = await svc.db.appMode.findFirst({ where: demoLive, orderBy: { app: { createdAt: 'asc' } } });
  return mode ?? undefined;
}
