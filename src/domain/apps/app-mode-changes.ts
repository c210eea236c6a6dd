import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import type { AppMode } from '../../generated/prisma/client.js';
import type { Ctx, Services } from '../context.js';
import { liveTopic } from '../live-topic.js';

// An app-mode's settings, live: each change comes as the `app_mode.changed` row, which carries the
// settings as that change left them, so subscribers see every change as itself, in order.

/** An app-mode as subscribers see it: everything but its secrets. */
export type AppModeState = Omit<AppMode, 'identitySecretEnc' | 'inboundSecretEnc'>;

export interface AppModeChange {
  /** Name it as `after` to resume from here. */
  version: string;
  /** The whole state, not a change after the last version the subscriber named. */
  reload: boolean;
  appMode: AppModeState;
}

/** What an `app_mode.changed` row carries: the settings after the change, as JSON. */
export function appModeState(mode: AppMode): Record<string, unknown> {
  const { identitySecretEnc: _i, inboundSecretEnc: _s, ...state } = mode;
  return { ...state, updatedAt: state.updatedAt.toISOString() };
}

const states = new WeakMap<object, AppModeState>();
/** The settings a row carries, made once for all the process's subscribers (the row is the same object for each). */
function fromRow(data: Record<string, unknown>): AppModeState | undefined {
  if (typeof data.updatedAt !== 'string') return undefined;
  let state = states.get(data);
  if (!state) states.set(data, (state = { ...data, updatedAt: new Date(data.updatedAt) } as AppModeState));
  return state;
}

/**
 * An app-mode as it is now (or each change after the version named by `after`), then after each
 * committed change, from any server process, until the signal is aborted or the app-mode is gone.
 */
const changeOf = (row: OutboxRow) => fromRow(row.data);
/** Each change as subscribers get it, made once for all of them (see changeEvent in live-topic.ts). */
const changes = new WeakMap<object, AppModeChange>();

export async function* appModeChanges(
  ctx: Ctx,
  appModeId: string,
  opts: { after?: string | null; signal: AbortSignal },
): AsyncGenerator<AppModeChange> {
  const read = (db: Pick<Services['db'], 'appMode'>) =>
    db.appMode.findUnique({ where: { id: appModeId }, omit: { identitySecretEnc: true, inboundSecretEnc: true } });
  for await (const event of liveTopic(ctx, 'app_mode.changed', appModeId, { ...opts, read: (tx) => read(tx.db), change: changeOf })) {
    const shared = changes.get(event);
    if (shared) {
      yield shared;
      continue;
    }
    // A row written before rows carried the settings (kept at most OUTBOX_KEEP_DAYS): read them.
    const appMode = event.reload ? event.state : (event.change ?? (await read(ctx.db)));
    if (!appMode) return;
    const change: AppModeChange = { version: event.version, reload: event.reload, appMode };
    if (!event.reload && event.change) changes.set(event, change);
    yield change;
  }
}
