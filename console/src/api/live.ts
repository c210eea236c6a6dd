import { createClient, type Client } from 'graphql-ws';
import type { TypedDocumentString } from '../generated/graphql';
import { readSession } from './session';
import { store } from './store';

// Subscriptions over graphql-ws on this origin's /graphql; the token goes once, in connectionParams.
// The socket opens with the first subscription. A lost socket ends every subscription; each starts
// again by itself after a pause, reading its variables afresh, so it resumes from the `after` it
// last saw instead of from where it began. `connection` says how the socket is, for the screen.

export type Connection = 'connecting' | 'connected' | 'lost';
export const connection = store<Connection>('connecting');

const UNAUTHORIZED = 4401;
let client: Client | undefined;
let failures = 0;
/** Subscriptions wanted now: a socket closed with none (the last screen that had one left) is not lost. */
let wanted = 0;
let onSignedOut: () => void = () => {};
export const whenSocketRefused = (f: () => void) => (onSignedOut = f);

function socket(): Client {
  if (client) return client;
  client = createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    connectionParams: () => ({ authorization: `Bearer ${readSession()?.token ?? ''}` }),
    retryAttempts: 0,
    on: {
      connected: () => {
        failures = 0;
        connection.set('connected');
      },
      closed: (event) => {
        client = undefined;
        connection.set(wanted > 0 ? 'lost' : 'connecting');
        if ((event as CloseEvent | undefined)?.code === UNAUTHORIZED) onSignedOut();
      },
    },
  });
  return client;
}

/** Ends the socket (at sign-out): the next subscription opens one with the new session. */
export function closeLive() {
  const c = client;
  client = undefined;
  void c?.dispose();
}

/**
 * Subscribes to `document`; `variables()` is read at each (re)start, so a resume point (`after`)
 * goes afresh after a lost connection. Returns the unsubscribe.
 */
export function live<T, V>(document: TypedDocumentString<T, V>, variables: () => V, next: (data: T) => void): () => void {
  let stopped = false;
  let stop: () => void = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const start = () => {
    if (stopped || !readSession()) return;
    stop = socket().subscribe<T>(
      { query: document.toString(), variables: variables() as Record<string, unknown> },
      {
        next: (r) => r.data && next(r.data as T),
        error: (e) => {
          if (stopped || (e as CloseEvent | undefined)?.code === UNAUTHORIZED) return;
          // Half a second, doubling to ten, with jitter: a restarted service is not met by every console at once.
          failures++;
          const pause = Math.min(10_000, 500 * 2 ** Math.min(failures, 5)) * (0.5 + Math.random() / 2);
          timer = setTimeout(start, pause);
        },
        complete: () => {},
      },
    );
  };
  wanted++;
  start();
  return () => {
    if (!stopped) wanted--;
    stopped = true;
    clearTimeout(timer);
    stop();
  };
}
