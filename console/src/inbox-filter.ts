import { store } from './api/store';
import type { ConversationRowFragment } from './generated/graphql';

// Whose conversations the inbox shows: everyone's, the member's own, nobody's, or a team's. Kept
// per browser, as the member left it; the list asks the service for those only, and a live change
// joins the list only when its conversation is one of them.

export type InboxFilter = { kind: 'all' } | { kind: 'mine' } | { kind: 'unassigned' } | { kind: 'team'; teamId: string };

const KEY = 'crm.console.inboxFilter';

function saved(): InboxFilter {
  try {
    const f = JSON.parse(localStorage.getItem(KEY) ?? '') as InboxFilter;
    if (f.kind === 'all' || f.kind === 'mine' || f.kind === 'unassigned' || (f.kind === 'team' && typeof f.teamId === 'string')) return f;
  } catch {
    // None kept, or not one of ours: everyone's.
  }
  return { kind: 'all' };
}

export const inboxFilter = store<InboxFilter>(saved());

export function setInboxFilter(f: InboxFilter) {
  localStorage.setItem(KEY, JSON.stringify(f));
  inboxFilter.set(f);
}

/** The filter as the list's arguments. */
export function filterArgs(f: InboxFilter, me: string | null): { assigneeId?: string; teamId?: string; unassigned?: boolean } {
  if (f.kind === 'mine' && me) return { assigneeId: me };
  if (f.kind === 'unassigned') return { unassigned: true };
  if (f.kind === 'team') return { teamId: f.teamId };
  return {};
}

/** Whether a conversation is one the filter shows. */
export function shows(f: InboxFilter, me: string | null, c: Pick<ConversationRowFragment, 'assignee' | 'team'>): boolean {
  if (f.kind === 'mine') return !!me && c.assignee?.id === me;
  if (f.kind === 'unassigned') return !c.assignee;
  if (f.kind === 'team') return c.team?.id === f.teamId;
  return true;
}

/** The filter's value in the inbox's select, and back. */
export const filterValue = (f: InboxFilter) => (f.kind === 'team' ? `team:${f.teamId}` : f.kind);
export function filterOf(value: string): InboxFilter {
  if (value.startsWith('team:')) return { kind: 'team', teamId: value.slice(5) };
  return value === 'mine' || value === 'unassigned' ? { kind: value } : { kind: 'all' };
}
