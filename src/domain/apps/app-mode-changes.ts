import type { AppMode } from '../../generated/prisma/client.js';
import type { Services } from '../context.js';

/**
 * An app-mode as it is now, then again after each committed change (from any server process),
 * until the signal is aborted, the app-mode is gone, or `allowed` says the subscriber may no
 * longer see it (signed out, removed from the workspace). Listening starts before the first read,
 * so a change between the two is never missed.
 */
export async function* appModeChanges(svc: Services, appModeId: string, signal: AbortSignal, allowed: () => Promise<boolean>): AsyncGenerator<AppMode> {
  const notices = svc.outbox.watch('app_mode.changed', appModeId, signal);
  let next = notices.next();
  for (;;) {
    const mode = await svc.db.appMode.findUnique({ where: { id: appModeId } });
    if (!mode || !(await allowed())) return;
    yield mode;
    if ((await next).done) return;
    next = notices.next();
  }
}
