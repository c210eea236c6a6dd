import type { AppMode } from '../../generated/prisma/client.js';
import type { Ctx, Services } from '../context.js';
import { liveTopic, type RowChange } from '../live-topic.js';

// An app-mode's settings, live: each change comes as the `app_mode.changed` row, which carries the
// settings as that change left them, so subscribers see every change as itself, in order.

/** An app-mode as subscribers see it: everything but its secrets. */
export type AppModeState = Omit<AppMode, 'identitySecretEnc' | 'inboundSecretEnc' | 'previousInboundSecretEnc' | 'previousInboundUntil'>;

export interface AppModeChange {
  /** Name it as `after` to resume from here. */
  version: string;
  /** The whole state, not a change after the last version the subscriber named. */
  reload: boolean;
  appMode: AppModeState;
}

/** What an `app_mode.changed` row carries: the settings after the change, as JSON. */
export function appModeState(mode: AppMode): Record<string, unknown> {
  const { identitySecretEnc: _i, inboundSecretEnc: _s, previousInboundSecretEnc: _p, previousInboundUntil: _u, ...state } = mode;
  return { ...state, updatedAt: state.updatedAt.toISOString() };
}

/**
 * The change a row tells, made once for all the process's subscribers (see RowChange); none for a
 * row written before rows carried the settings.
 */
const changeOf: RowChange<AppModeChange | undefined> = (row, version) =>
  typeof row.data.updatedAt === 'string'
    ? { version, reload: false, appMode: { ...row.data, updatedAt: new Date(row.data.updatedAt) } as AppModeState }
    : undefined;

/**
 * An app-mode as it is now (or each change after the version named by `after`), then after each
 * committed change, from any server process, until the signal is aborted or the app-mode is gone.
 */
export async function* appModeChanges(
  ctx: Ctx,
  appModeId: string,
  opts: { after?: string | null; signal: AbortSignal },
): AsyncGenerator<AppModeChange> {
  const read = (db: Pick<Services['db'], 'appMode'>) =>
    db.appMode.findUnique({
      where: { id: appModeId },
      omit: { identitySecretEnc: true, inboundSecretEnc: true, previousInboundSecretEnc: true, previousInboundUntil: true },
    });
  for await (const event of liveTopic(ctx, 'app_mode.changed', appModeId, { ...opts, read: (tx) => read(tx.db), change: changeOf })) {
    if (!event.reload && event.change) {
      yield event.change;
      continue;
    }
    // A row written before rows carried the settings (kept at most OUTBOX_KEEP_DAYS): read them.
    const appMode = event.reload ? event.state : await read(ctx.db);
    if (!appMode) return;
    yield { version: event.version, reload: event.reload, appMode };
  }
}
