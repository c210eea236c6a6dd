import type { Ctx } from '../context.js';
import { liveTopic, type RowChange } from '../live-topic.js';

// Contacts, live: the staff list hears of each person identify makes (the `contact.created` row it
// writes already, for webhooks), from every server process, in order, once, without a write of its
// own. Changes to a person already there (`contact.updated`) and people first seen by the guest API
// are not told: their rows move or come at the list's next reading.

export const CONTACT_CREATED = 'contact.created';

export interface ContactChange {
  /** Name it as `after` to resume from here. */
  version: string;
  /** The subscriber had nothing to resume from (or too old a version): read the list again. */
  reload: boolean;
  appModeId: string;
  /** The person made (null on reload). */
  externalId: string | null;
}

/** What a row tells: made once per process for every subscriber (see RowChange). */
const changeOf: RowChange<ContactChange> = (row, version) => ({
  version,
  reload: false,
  appModeId: row.appModeId,
  externalId: row.externalId,
});

/**
 * The people identify makes in the app-mode as their transactions commit, on any server process:
 * first a reload (or, with `after`, each one made since that version), then each, until the signal
 * is aborted. Bounded as every live topic is: a subscriber too far behind is told to reload.
 */
export async function* contactChanges(
  ctx: Ctx,
  appModeId: string,
  opts: { after?: string | null; signal: AbortSignal },
): AsyncGenerator<ContactChange> {
  for await (const event of liveTopic(ctx, CONTACT_CREATED, appModeId, {
    after: opts.after,
    signal: opts.signal,
    read: async () => null,
    change: changeOf,
  }))
    yield event.reload ? { version: event.version, reload: true, appModeId, externalId: null } : event.change;
}
