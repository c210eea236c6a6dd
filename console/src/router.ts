import { store } from './api/store';

// Client-side routes under /console/: the service answers the shell for every one of them.

export const BASE = '/console';
export const path = store(location.pathname);

export function navigate(to: string, opts: { replace?: boolean } = {}) {
  const url = to.startsWith(BASE) ? to : `${BASE}${to}`;
  if (url === location.pathname) return;
  history[opts.replace ? 'replaceState' : 'pushState'](null, '', url);
  path.set(url);
}

addEventListener('popstate', () => path.set(location.pathname));

export type Route =
  | { screen: 'sign-in' }
  | { screen: 'inbox'; state: InboxState; conversationId?: string | undefined }
  | { screen: 'contacts' }
  | { screen: 'contact'; id: string }
  | { screen: 'settings'; page: string }
  | { screen: 'not-found' };

export type InboxState = 'open' | 'snoozed' | 'closed';
export const INBOX_STATES: InboxState[] = ['open', 'snoozed', 'closed'];

export function route(pathname: string): Route {
  const parts = pathname.slice(BASE.length).split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { screen: 'inbox', state: 'open' };
  if (parts[0] === 'sign-in' && parts.length === 1) return { screen: 'sign-in' };
  if (parts[0] === 'inbox' && parts.length <= 3) {
    const state = (parts[1] ?? 'open') as InboxState;
    if (INBOX_STATES.includes(state)) return { screen: 'inbox', state, conversationId: parts[2] };
  }
  if (parts[0] === 'contacts' && parts.length === 1) return { screen: 'contacts' };
  if (parts[0] === 'contacts' && parts.length === 2) return { screen: 'contact', id: parts[1]! };
  if (parts[0] === 'settings' && parts.length <= 2) return { screen: 'settings', page: parts[1] ?? 'app' };
  return { screen: 'not-found' };
}

export const inboxPath = (state: InboxState, conversationId?: string) =>
  `${BASE}/inbox/${state}${conversationId ? `/${encodeURIComponent(conversationId)}` : ''}`;

export const CONTACTS_PATH = `${BASE}/contacts`;
export const contactPath = (id: string) => `${BASE}/contacts/${encodeURIComponent(id)}`;
