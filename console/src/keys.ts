// Shortcuts by `event.code` (the key's place on the keyboard), so they work on any layout,
// Cyrillic or Greek too; never while typing in a field, except the command menu's Ctrl/⌘-K.

export const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export const commandMenuKey = (e: KeyboardEvent) => (e.ctrlKey || e.metaKey) && !e.altKey && e.code === 'KeyK';

/** A plain key (no Ctrl, ⌘ or Alt) pressed outside a field. */
export const plainKey = (e: KeyboardEvent, code: string) => e.code === code && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target);
