import type { AppMode } from '../../generated/prisma/client.js';
import type { Services } from '../context.js';

/**
 * An app-mode as it is now, then again after each committed change (from any server process),
 * until the signal is aborted or the app-mode is gone. Listening starts before the first read, so
 * a change between the two is never missed.
 */
export async function* appModeChanges(svc: Services, appModeId: string, signal: AbortSignal): AsyncGenerator<AppMode> {
  const notices = svc.notifier.watch('app_mode.changed', appModeId, signal);
  let next = notices.next();
  for (;;) {
    const mode = await svc.db.appMode.findUnique({ where: { id: appModeId } });
    if (!mode) return;
    yield mode;
    if ((await next).done) return;
    next = notices.next();
  }
}
