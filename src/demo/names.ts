import type { Services } from '../domain/context.js';

// How the demo made on the first start is found again: by its names (demo.ts makes them).

export const DEMO_WORKSPACE = 'Demo workspace';
export const DEMO_APP = 'Demo app';

/** The demo app's live app key when the demo is here and its help center is on; else undefined. */
export async function demoHelpAppKey(svc: Services): Promise<string | undefined> {
  const mode = await svc.db.appMode.findFirst({
    where: { mode: 'live', helpOn: true, archived: false, app: { name: DEMO_APP, workspace: { name: DEMO_WORKSPACE } } },
    select: { appKey: true },
    orderBy: { app: { createdAt: 'asc' } },
  });
  return mode?.appKey;
}
