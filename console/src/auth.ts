import { closeLive, whenSocketRefused } from './api/live';
import { request, whenUnauthenticated } from './api/request';
import { forgetSession, onSessionChange, readSession } from './api/session';
import { store } from './api/store';
import { SignOutDocument } from './generated/graphql';
import { navigate } from './router';

// Signed in or not, in this tab and the others: a refused session (signed out elsewhere, expired)
// brings every tab back to the sign-in screen.

export const signedIn = store(!!readSession());

export function signedOutHere() {
  forgetSession();
  closeLive();
  signedIn.set(false);
  navigate('/sign-in', { replace: true });
}

/** Ends the session on the service too, then here. */
export async function signOut() {
  await request(SignOutDocument, {}).catch(() => {});
  signedOutHere();
}

whenUnauthenticated(signedOutHere);
whenSocketRefused(signedOutHere);
onSessionChange(() => (readSession() ? signedIn.set(true) : signedOutHere()));
