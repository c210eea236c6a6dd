import { isHidden, pageDocument, pageWindow } from './browser.js';

export interface PageLife {
  stop(): void;
}

/**
 * The page coming to the front (with how long it was hidden) and going away (hidden, or being left):
 * nothing happens outside a browser.
 */
export function pageLife(on: { shown(hiddenForMs: number): void; hidden(): void }): PageLife {
  const document = pageDocument();
  const window = pageWindow();
  if (!document || !window) return { stop() {} };
  let hiddenAt: number | undefined;
  const visibility = () => {
    if (isHidden()) {
      hiddenAt ??= Date.now();
      on.hidden();
    } else if (hiddenAt !== undefined) {
      const hiddenFor = Date.now() - hiddenAt;
      hiddenAt = undefined;
      on.shown(hiddenFor);
    }
  };
  const leaving = () => on.hidden();
  document.addEventListener('visibilitychange', visibility);
  window.addEventListener('pagehide', leaving);
  return {
    stop() {
      document.removeEventListener('visibilitychange', visibility);
      window.removeEventListener('pagehide', leaving);
    },
  };
}
