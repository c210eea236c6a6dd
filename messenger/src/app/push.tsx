import { useEffect, useState } from 'preact/hooks';
import type { MessengerContext, PushSetup } from '../context.js';
import { words } from '../words.js';

// Notifications by Web Push, offered on the notices screen and only when the person asks for them
// (never a prompt on its own): the site's own service worker registered, a subscription with the
// app's VAPID key, and the subscription registered as a web device (`PUT /guest/v1/devices`), once
// per subscription on this page and again when it changes. Turned off here, or at sign-out
// (`Messenger.shutdown()`), the device is forgotten and the subscription ended.

type State = 'unknown' | 'off' | 'on' | 'blocked' | 'failed';

/** Subscriptions registered on this page (their tokens). */
const registered = new Set<string>();

const supported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** The worker's subscription when it was made with the app's key (one made with keys staff replaced cannot be sent to). */
async function current(push: PushSetup): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(push.worker);
  const subscription = (await registration?.pushManager.getSubscription()) ?? null;
  const key = subscription?.options.applicationServerKey;
  return subscription && key && base64url(key) === push.key ? subscription : null;
}

async function register(context: MessengerContext, subscription: PushSubscription): Promise<void> {
  const token = JSON.stringify(subscription);
  if (registered.has(token)) return;
  await context.client.registerDevice({ platform: 'web', token, ...(context.language ? { locale: context.language } : {}) });
  registered.add(token);
}

/** The registration's worker once it is active (a push subscription needs one). */
function activated(registration: ServiceWorkerRegistration): Promise<void> {
  const worker = registration.installing ?? registration.waiting;
  if (registration.active || !worker) return Promise.resolve();
  return new Promise((resolve) => worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()));
}

async function turnOn(context: MessengerContext, push: PushSetup): Promise<State> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'blocked' : 'off';
  const registration = await navigator.serviceWorker.register(push.worker);
  await activated(registration);
  const old = await registration.pushManager.getSubscription();
  let subscription = await current(push);
  if (!subscription) {
    await old?.unsubscribe();
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: push.key });
  }
  await register(context, subscription);
  return 'on';
}

async function turnOff(context: MessengerContext, push: PushSetup): Promise<State> {
  const subscription = await current(push);
  if (subscription) {
    const token = JSON.stringify(subscription);
    await context.client.forgetDevice(token);
    registered.delete(token);
    await subscription.unsubscribe();
  }
  return 'off';
}

/** The notices screen's notifications control; nothing where the page, the app or the browser has no Web Push. */
export function PushControl({ context }: { context: MessengerContext }) {
  const push = context.push;
  const [state, setState] = useState<State>('unknown');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!push || !supported()) return;
    if (Notification.permission === 'denied') return setState('blocked');
    // Agreed before: the subscription is registered again (the service's "on every start"), once a page.
    void current(push)
      .then(async (subscription) => {
        if (subscription && Notification.permission === 'granted') {
          await register(context, subscription);
          return 'on';
        }
        return 'off';
      })
      .then(setState, () => setState('off'));
  }, []);
  if (!push || state === 'unknown') return null;
  const act = (change: (context: MessengerContext, push: PushSetup) => Promise<State>) => {
    setBusy(true);
    void change(context, push)
      .then(setState, () => setState('failed'))
      .then(() => setBusy(false));
  };
  const w = words();
  return (
    <section class="push" aria-label={w.getNotifications} aria-busy={busy}>
      {state === 'on' ? (
        <>
          <p role="status">{w.notificationsOn}</p>
          <button type="button" class="link-button" disabled={busy} onClick={() => act(turnOff)}>
            {w.turnOffNotifications}
          </button>
        </>
      ) : state === 'blocked' ? (
        <p>{w.notificationsBlocked}</p>
      ) : (
        <>
          {state === 'failed' ? <p role="alert">{w.notificationsFailed}</p> : <p>{w.notificationsInvite}</p>}
          <button type="button" class="primary" disabled={busy} onClick={() => act(turnOn)}>
            {busy ? w.turningOn : w.getNotifications}
          </button>
        </>
      )}
    </section>
  );
}

export const PUSH_CSS = `
.push { border: 1px solid #d0d0d0; border-radius: 10px; padding: 10px 12px; margin-bottom: 12px; display: flex; flex-direction: column; align-items: flex-start; gap: 8px; }
.push p { margin: 0; }
`;
