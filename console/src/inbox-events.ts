import type { InboxChangedSubscription } from './generated/graphql';

// The inbox's one live subscription, passed on to the open conversation (no second socket stream).

export type InboxChange = InboxChangedSubscription['inboxChanged'];
type Listener = (change: InboxChange) => void;
const listeners = new Set<Listener>();

export function onInboxChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const tellInboxChange = (change: InboxChange) => listeners.forEach((l) => l(change));
