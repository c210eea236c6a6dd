/**
 * The few browser globals the SDK uses, described here rather than taken from the DOM's types: the SDK
 * runs in a browser, in a web worker or on a server (Node), and checks each is there before use.
 */
interface Listening {
  addEventListener(type: string, listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: string, listener: () => void): void;
}

interface BrowserGlobals {
  document?: Listening & { visibilityState?: string };
  window?: Listening;
  navigator?: { onLine?: boolean; language?: string };
}

const globals = globalThis as unknown as BrowserGlobals;

/** The page's document, when there is one. */
export const pageDocument = (): BrowserGlobals['document'] => globals.document;
/** The page's window, when there is one. */
export const pageWindow = (): BrowserGlobals['window'] => globals.window;
/** false only when the browser knows it is offline. */
export const isOnline = (): boolean => globals.navigator?.onLine !== false;
/** The browser's language, when there is one. */
export const browserLanguage = (): string | undefined => globals.navigator?.language;
/** The page is hidden (a tab in the background); never outside a browser. */
export const isHidden = (): boolean => globals.document?.visibilityState === 'hidden';
