// The snippet's first script (`{base_url}/messenger.js`): the `Messenger` global, the check-in and the
// launcher. The screens load only when the launcher is first opened; until then a page with the
// messenger makes no request beyond the check-in and the app's details.
import { createClient, type Checkin, type ClientOptions, type GuestClient } from '../../sdk/src/index.js';
import type { Brand, InAppLayer, MessengerScreens, PushSetup } from './context.js';
import { LAUNCHER_CSS, PANEL_CSS, PHONE_CSS } from './styles.js';
import { readableOn } from './colors.js';
import { launcherWordsFor } from './launcher-words.js';

/** The screens' file under `/messenger/assets/`, named by its content's hash (set by the build). */
declare const __MESSENGER_SCREENS__: string;
/** The in-app layer's file under `/messenger/assets/` (set by the build). */
declare const __MESSENGER_INAPP__: string;
/** The messenger's version, sent after the SDK's in `X-Crm-Sdk`. */
declare const __MESSENGER_VERSION__: string;

export interface BootOptions {
  /** The user's token, from the customer's own route (verified sign-in). */
  token?: ClientOptions['token'];
  /** The user's id, for an app with unverified sign-in. */
  userId?: string;
  language?: string;
  appVersion?: string;
  /** The named screen on view (in-app messages for some screens wait for theirs). */
  screen?: () => string | undefined;
  /**
   * The site's own service worker script (such as `/sw.js`, one line: `importScripts('{base_url}/messenger-sw.js')`):
   * the notices screen then offers notifications by Web Push, registered when the person agrees.
   */
  serviceWorker?: string;
}

const script = document.currentScript as HTMLScriptElement | null;
const scriptUrl = new URL(script?.src ?? `${location.origin}/messenger.js`);
const baseUrl =
  scriptUrl.href.slice(0, scriptUrl.href.length - scriptUrl.pathname.length) + scriptUrl.pathname.replace(/\/messenger\.js$/, '');
const appKey = script?.dataset.appKey ?? '';

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z"/></svg>';
const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z"/></svg>';

interface Booted {
  client: GuestClient;
  host: HTMLElement;
  launcher: HTMLButtonElement;
  badge: HTMLElement;
  panel: HTMLElement;
  brand: Brand;
  helpCenter: boolean;
  language: string | undefined;
  screens?: { unmount(): void };
  inApp?: Promise<ReturnType<InAppLayer['show']> | undefined>;
  unread: number;
  unreadNotices: number;
  push?: PushSetup;
}

let booted: Booted | undefined;
let launcherWords = launcherWordsFor(undefined);
let booting: Promise<void> | undefined;

async function boot(options: BootOptions): Promise<void> {
  await shutdown(false);
  if (!appKey) throw new Error('The messenger script needs data-app-key="app_…".');
  booting = (async () => {
    // The app's details first: a page on an origin the app does not allow gets nothing, and makes no other request.
    const details = await fetch(`${baseUrl}/public/v1/apps/${encodeURIComponent(appKey)}`).then((r) => (r.ok ? r.json() : undefined));
    if (!details?.features?.messenger) return;
    const brand: Brand = { name: String(details.brand?.name ?? ''), color: String(details.brand?.color ?? '#1f6feb') };
    const client = createClient({
      baseUrl,
      appKey,
      token: options.token,
      userId: options.userId,
      language: options.language,
      appVersion: options.appVersion,
      screen: options.screen,
      sdkName: `messenger/${__MESSENGER_VERSION__}`,
      onCheckin: (answer) => checkedIn(answer),
    });
    const language = options.language ?? navigator.language;
    launcherWords = launcherWordsFor(language);
    booted = draw(client, brand, details.features.helpCenter === true, language);
    if (options.serviceWorker && details.webPushKey) booted.push = { worker: options.serviceWorker, key: String(details.webPushKey) };
  })();
  await booting;
}

function draw(client: GuestClient, brand: Brand, helpCenter: boolean, language: string | undefined): Booted {
  const host = document.createElement('div');
  host.setAttribute('data-crm-messenger', '');
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = LAUNCHER_CSS + PANEL_CSS + PHONE_CSS;
  root.append(style);
  host.style.setProperty('--brand', brand.color);
  host.style.setProperty('--on-brand', readableOn(brand.color));
  const launcher = document.createElement('button');
  launcher.className = 'launcher';
  launcher.type = 'button';
  launcher.setAttribute('aria-expanded', 'false');
  launcher.setAttribute('aria-label', launcherWords.openMessages);
  launcher.innerHTML = CHAT_ICON;
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.hidden = true;
  launcher.append(badge);
  const panel = document.createElement('div');
  panel.className = 'panel';
  panel.hidden = true;
  root.append(panel, launcher);
  launcher.addEventListener('click', () => (panel.hidden ? open() : close()));
  document.body.append(host);
  return { client, host, launcher, badge, panel, brand, helpCenter, language, unread: 0, unreadNotices: 0 };
}

function checkedIn(answer: Checkin): void {
  setUnread(answer.unread + answer.unreadNotices, answer.unreadNotices);
  const b = booted;
  if (!b || !answer.messages.length) return;
  // The in-app layer loads with the first message to show: a page with none never fetches it.
  b.inApp ??= import(/* @vite-ignore */ `${baseUrl}/messenger/assets/${__MESSENGER_INAPP__}`).then(
    (layer: InAppLayer) =>
      booted === b ? layer.show(b.host.shadowRoot!, { client: b.client, brand: b.brand, language: b.language }) : undefined,
    () => (b.inApp = undefined), // tried again at the next check-in
  );
  void b.inApp.then((shown) => shown?.add(answer.messages));
}

function setUnread(unread: number, notices = booted?.unreadNotices ?? 0): void {
  if (!booted) return;
  booted.unread = unread;
  booted.unreadNotices = notices;
  const shown = unread > 99 ? '99+' : String(unread);
  booted.badge.textContent = shown;
  // While open the launcher closes the messenger, and says so whatever a check-in brings (its label
  // holds what it shows: the count while closed, only the close mark while open).
  booted.badge.hidden = unread <= 0 || !booted.panel.hidden;
  if (booted.panel.hidden)
    booted.launcher.setAttribute('aria-label', unread > 0 ? launcherWords.openMessagesUnread(unread, shown) : launcherWords.openMessages);
}

async function open(): Promise<void> {
  await booting;
  const b = booted;
  if (!b || !b.panel.hidden) return;
  b.panel.hidden = false;
  b.launcher.setAttribute('aria-expanded', 'true');
  b.launcher.innerHTML = CLOSE_ICON;
  b.badge.hidden = true;
  b.launcher.append(b.badge);
  b.launcher.setAttribute('aria-label', launcherWords.closeMessages);
  if (!b.screens) {
    const screens = (await import(/* @vite-ignore */ `${baseUrl}/messenger/assets/${__MESSENGER_SCREENS__}`)) as MessengerScreens;
    if (booted !== b) return;
    b.screens = screens.mount(b.panel, {
      client: b.client,
      brand: b.brand,
      helpCenter: b.helpCenter,
      language: b.language,
      push: b.push,
      close,
    });
  }
}

function close(): void {
  const b = booted;
  if (!b || b.panel.hidden) return;
  b.panel.hidden = true;
  b.launcher.setAttribute('aria-expanded', 'false');
  b.launcher.innerHTML = CHAT_ICON;
  b.launcher.append(b.badge);
  setUnread(b.unread);
  b.launcher.focus();
}

/** Signs the user out of the messenger: this browser's push subscription forgotten, held events sent, the launcher gone. */
async function shutdown(signOut = true): Promise<void> {
  await booting?.catch(() => undefined);
  const b = booted;
  booted = undefined;
  if (!b) return;
  b.screens?.unmount();
  b.host.remove();
  if (signOut && b.push) await forgetPush(b.client, b.push.worker).catch(() => undefined);
  await b.client.close();
}

/** Forgets the subscription of the site's worker (the device, while the user's token still works) and ends it. */
async function forgetPush(client: GuestClient, worker: string): Promise<void> {
  const subscription = await (await navigator.serviceWorker?.getRegistration(worker))?.pushManager.getSubscription();
  if (!subscription) return;
  // Ended even when the service cannot be told: the next person on this browser gets nothing of this user's (a send to it is then gone).
  await client.forgetDevice(JSON.stringify(subscription)).catch(() => undefined);
  await subscription.unsubscribe();
}

/** The page's handle on the messenger. */
const api = {
  boot,
  shutdown: () => shutdown(),
  open,
  close,
  /** Checks in as soon as the last answer allows (after a single-page app moved to another screen). */
  checkin: () => booted?.client.checkin(),
  /** A product event of the user's. */
  track: (name: string, props?: Record<string, string>) => booted?.client.track(name, props),
};

// Calls made before this script arrived (a page's stub `Messenger = { q: [] }` collecting them) run now.
const waiting = (window as { Messenger?: { q?: [keyof typeof api, unknown[]][] } }).Messenger?.q ?? [];
(window as unknown as { Messenger: typeof api }).Messenger = api;
for (const [name, args] of waiting) void (api[name] as (...a: unknown[]) => unknown)(...args);
