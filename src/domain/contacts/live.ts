import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import type { Ctx } from '../context.js';
import { liveTopic } from '../live-topic.js';

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

/** What a row tells: made once per process for every subscriber (the row is the same object for each). */
const externalIdOf = (row: OutboxRow): string | null => row.externalId;

const shared = new WeakMap<object, ContactChange>();

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
    change: externalIdOf,
  })) {
    if (event.reload) {
      yield { version: event.version, reload: true, appModeId, externalId: null };
      continue;
    }
    let change = shared.get(event);
    if (!change) shared.set(event, (change = { version: event.version, reload: false, appModeId, externalId: event.change }));
    yield change;
  }
}
