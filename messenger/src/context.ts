import type { Checkin, GuestClient } from '../../sdk/src/index.js';

/** The app's brand as the public app details give it. */
export interface Brand {
  name: string;
  color: string;
}

/** Web Push, when the page gave its service worker (`boot({ serviceWorker })`) and the app has VAPID keys. */
export interface PushSetup {
  /** The address of the site's own service worker script, which imports `{base_url}/messenger-sw.js`. */
  worker: string;
  /** The app's VAPID public key (base64url), the applicationServerKey. */
  key: string;
}

/** What the first script hands the messenger's screens when it is first opened. */
export interface MessengerContext {
  client: GuestClient;
  brand: Brand;
  /** The person's language (BCP 47), as `boot` was given it or the browser's. */
  language: string | undefined;
  /** The help center is switched on for the app (the public app details' features). */
  helpCenter: boolean;
  /** Web Push, offered on the notices screen; absent when the page or the app has none. */
  push?: PushSetup;
  /** Closes the messenger (the launcher takes the focus back). */
  close(): void;
}

/** The screens' module (loaded when the messenger is first opened). */
export interface MessengerScreens {
  mount(into: HTMLElement, context: MessengerContext): { unmount(): void };
}

/** What the first script hands the in-app layer. */
export interface InAppContext {
  client: GuestClient;
  brand: Brand;
  language: string | undefined;
}

/** The in-app layer's module (loaded when a check-in first answers a message). */
export interface InAppLayer {
  show(root: ShadowRoot, context: InAppContext): { add(messages: Checkin['messages']): void };
}
