const FOCUSABLE =
  'button:not([disabled]), a[href], textarea:not([disabled]), input:not([disabled]), select, [tabindex]:not([tabindex="-1"])';

/**
 * Keeps the keyboard inside the open panel: Tab and Shift-Tab go round its controls, Escape closes it
 * (the launcher then takes the focus back). The first control takes the focus as it opens.
 */
export function trapFocus(panel: HTMLElement, close: () => void): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'Tab') return;
    const controls = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((c) => c.offsetParent !== null);
    if (!controls.length) return;
    const first = controls[0]!;
    const last = controls.at(-1)!;
    const active = (panel.getRootNode() as ShadowRoot).activeElement;
    if (event.shiftKey && active === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };
  panel.addEventListener('keydown', onKey);
  return () => panel.removeEventListener('keydown', onKey);
}

/** Focuses the panel's first control (as a screen is shown). */
export function focusFirst(panel: HTMLElement | null): void {
  panel?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
}
