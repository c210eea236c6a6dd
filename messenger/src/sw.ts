// The messenger's service worker part (`{base_url}/messenger-sw.js`). A service worker must come from
// the site's own origin, so the site serves a one-line `/sw.js` of its own that imports this one:
//   importScripts('{base_url}/messenger-sw.js');
// It shows the service's pushes (the payload src/domain/push/payload.ts `webPayload` builds: title,
// body, link, send_id) as notifications, and a click focuses the page the link names or opens it.
// Pushes of the site's own (without a send_id) are left to the site's handlers.

import { linkTarget } from './push-link.js';

/** What this worker uses of the service worker's scope (the DOM library the messenger is typed with has no worker types). */
interface WorkerScope {
  location: Location;
  registration: { showNotification(title: string, options: { body?: string; data?: unknown; tag?: string }): Promise<void> };
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<{ url: string; focus(): Promise<unknown> }[]>;
    openWindow(url: string): Promise<unknown>;
  };
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: ClickEvent) => void): void;
}
interface PushEvent {
  data: { json(): unknown } | null;
  waitUntil(done: Promise<unknown>): void;
}
interface ClickEvent {
  notification: { data: unknown; close(): void };
  waitUntil(done: Promise<unknown>): void;
}

/** What the service sends (webPayload). */
interface Sent {
  title: string;
  body?: string;
  link?: string;
  send_id: string;
}

const scope = self as unknown as WorkerScope;

function readPush(event: PushEvent): Sent | undefined {
  let data: Partial<Sent> | undefined;
  try {
    data = event.data?.json() as Partial<Sent> | undefined;
  } catch {
    return undefined; // not JSON: not the service's
  }
  if (typeof data?.send_id !== 'string' || typeof data.title !== 'string') return undefined;
  return {
    title: data.title,
    send_id: data.send_id,
    ...(typeof data.body === 'string' ? { body: data.body } : {}),
    ...(typeof data.link === 'string' ? { link: data.link } : {}),
  };
}

scope.addEventListener('push', (event) => {
  const sent = readPush(event);
  if (!sent) return;
  event.waitUntil(
    scope.registration.showNotification(sent.title, {
      ...(sent.body ? { body: sent.body } : {}),
      data: { link: sent.link ?? null, send_id: sent.send_id },
      // One notification a send, however often the push service hands it in.
      tag: `crm-${sent.send_id}`,
    }),
  );
});

scope.addEventListener('notificationclick', (event) => {
  const data = event.notification.data as { send_id?: unknown; link?: unknown } | null;
  if (typeof data?.send_id !== 'string') return;
  event.notification.close();
  const target = linkTarget(data.link, scope.location.origin);
  event.waitUntil(
    scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      // The page the link names when it is open already, else a page of the site when there is no link; else a new one.
      const same = windows.find((w) => w.url === target) ?? (data.link ? undefined : windows[0]);
      return same ? same.focus() : scope.clients.openWindow(target);
    }),
  );
});
