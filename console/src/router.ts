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
  | { screen: 'help'; collectionId?: string | undefined }
  | { screen: 'help-article'; id: string; language?: string | undefined }
  | { screen: 'tickets'; state: string; ticketId?: string | undefined }
  | { screen: 'ticket-types' }
  | { screen: 'messages'; messageId?: string | undefined; results?: boolean }
  | { screen: 'pushes' }
  | { screen: 'emails'; emailId?: string | undefined }
  | { screen: 'workflows'; workflowId?: string | undefined }
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
  if (parts[0] === 'help' && parts.length === 1) return { screen: 'help' };
  if (parts[0] === 'help' && parts[1] === 'collections' && parts.length === 3) return { screen: 'help', collectionId: parts[2] };
  if (parts[0] === 'help' && parts[1] === 'articles' && (parts.length === 3 || parts.length === 4))
    return { screen: 'help-article', id: parts[2]!, language: parts[3] };
  if (parts[0] === 'tickets' && parts.length <= 3) return { screen: 'tickets', state: parts[1] ?? 'all', ticketId: parts[2] };
  if (parts[0] === 'ticket-types' && parts.length === 1) return { screen: 'ticket-types' };
  if (parts[0] === 'pushes' && parts.length === 1) return { screen: 'pushes' };
  if (parts[0] === 'emails' && parts.length <= 2) return { screen: 'emails', emailId: parts[1] };
  if (parts[0] === 'workflows' && parts.length <= 2) return { screen: 'workflows', workflowId: parts[1] };
  if (parts[0] === 'messages' && parts.length <= 2) return { screen: 'messages', messageId: parts[1] };
  if (parts[0] === 'messages' && parts.length === 3 && parts[2] === 'results')
    return { screen: 'messages', messageId: parts[1], results: true };
  if (parts[0] === 'settings' && parts.length <= 2) return { screen: 'settings', page: parts[1] ?? 'app' };
  return { screen: 'not-found' };
}

export const inboxPath = (state: InboxState, conversationId?: string) =>
  `${BASE}/inbox/${state}${conversationId ? `/${encodeURIComponent(conversationId)}` : ''}`;

export const CONTACTS_PATH = `${BASE}/contacts`;
export const contactPath = (id: string) => `${BASE}/contacts/${encodeURIComponent(id)}`;

export const HELP_PATH = `${BASE}/help`;
export const helpCollectionPath = (id: string) => `${BASE}/help/collections/${encodeURIComponent(id)}`;
export const helpArticlePath = (id: string, language?: string) =>
  `${BASE}/help/articles/${encodeURIComponent(id)}${language ? `/${encodeURIComponent(language)}` : ''}`;
/** Tickets in one state (a state key, or `all`), and the one open beside the list. */
export const ticketsPath = (state = 'all', ticketId?: string) =>
  `${BASE}/tickets/${encodeURIComponent(state)}${ticketId ? `/${encodeURIComponent(ticketId)}` : ''}`;
export const TICKET_TYPES_PATH = `${BASE}/ticket-types`;
/** In-app messages, and the one open beside the list. */
export const messagesPath = (messageId?: string) => `${BASE}/messages${messageId ? `/${encodeURIComponent(messageId)}` : ''}`;
/** A survey's results, beside the messages list. */
export const surveyResultsPath = (messageId: string) => `${messagesPath(messageId)}/results`;
export const PUSHES_PATH = `${BASE}/pushes`;
/** Emails, and the one open beside the list (`new`: one being written). */
export const emailsPath = (emailId?: string) => `${BASE}/emails${emailId ? `/${encodeURIComponent(emailId)}` : ''}`;
/** Workflows, and the one open beside the list. */
export const workflowsPath = (workflowId?: string) => `${BASE}/workflows${workflowId ? `/${encodeURIComponent(workflowId)}` : ''}`;
