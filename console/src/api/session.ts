// The staff session (signIn's crm_st_… token), kept in localStorage: every tab of the console shares
// it, and signing out in one signs out all (the storage event). The page's strict CSP is what keeps
// script from elsewhere away from it.

const KEY = 'crm.console.session';

export interface Session {
  token: string;
  name: string;
  email: string;
  viewerId: string;
}

export function readSession(): Session | undefined {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : undefined;
  } catch {
    return undefined;
  }
}

export const saveSession = (session: Session) => localStorage.setItem(KEY, JSON.stringify(session));
export const forgetSession = () => localStorage.removeItem(KEY);

/** Calls `changed` when another tab signs in or out. */
export function onSessionChange(changed: () => void): () => void {
  const listener = (e: StorageEvent) => e.key === KEY && changed();
  addEventListener('storage', listener);
  return () => removeEventListener('storage', listener);
}
