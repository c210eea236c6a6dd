import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { plainKey } from '../keys';

// A list's keys: j/k move the focus among its rows (`a.row` with `data-id`), by key position, any
// layout; Enter opens. The row j/k last moved to is kept by id across renders, so a list read again
// or a row moved (which takes the focus from a moved element) neither loses the place nor what
// Enter opens.

export function useRowKeys(list: RefObject<HTMLElement | null>, onOpen: (id: string) => void) {
  const cursor = useRef<string | null>(null);
  const open = useRef(onOpen);
  open.current = onOpen;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const rows = [...(list.current?.querySelectorAll<HTMLAnchorElement>('a.row') ?? [])];
      if (rows.length === 0) return;
      if (plainKey(e, 'Enter') || plainKey(e, 'NumpadEnter')) {
        // On the focused row its own handler opened it; with the focus lost to the page, the cursor's row.
        if (e.defaultPrevented || document.activeElement !== document.body || !cursor.current) return;
        if (!rows.some((r) => r.dataset.id === cursor.current)) return;
        e.preventDefault();
        return open.current(cursor.current);
      }
      const down = plainKey(e, 'KeyJ');
      if (!down && !plainKey(e, 'KeyK')) return;
      e.preventDefault();
      const at = rows.findIndex(
        (r) =>
          r === document.activeElement ||
          (document.activeElement === document.body && (r.dataset.id === cursor.current || (!cursor.current && r.dataset.selected))),
      );
      const to = at < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, at + (down ? 1 : -1)));
      cursor.current = rows[to]!.dataset.id ?? null;
      rows[to]!.focus();
      rows[to]!.scrollIntoView({ block: 'nearest' });
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);

  // After a render that moved the cursor's row (the focus then falls to the page), it is given back.
  useEffect(() => {
    if (!cursor.current || document.activeElement !== document.body) return;
    list.current?.querySelector<HTMLAnchorElement>(`a.row[data-id="${CSS.escape(cursor.current)}"]`)?.focus();
  });
}

/**
 * Calls `more` when the element `end` points at is in view (the next page of a list), one load at a time. It looks
 * again whenever one of `keys` changes (the rows; the count of readings ended): a list read again (a reload that
 * raced a scroll, a next page dropped, a live change) may leave the end in view without its coming into view,
 * which an observer alone never reports, and the list would stop short.
 */
export function useMoreWhenSeen(
  end: RefObject<HTMLElement | null>,
  more: () => Promise<unknown> | unknown,
  hasMore: boolean,
  ...keys: unknown[]
) {
  const moreRef = useRef(more);
  moreRef.current = more;
  const busy = useRef(false);
  useEffect(() => {
    if (!end.current || !hasMore) return;
    // A new observer reports at once whether the end is in view now.
    const seen = new IntersectionObserver((entries) => {
      if (busy.current || !entries.some((e) => e.isIntersecting)) return;
      busy.current = true;
      void Promise.resolve(moreRef.current()).finally(() => (busy.current = false));
    });
    seen.observe(end.current);
    return () => seen.disconnect();
  }, [hasMore, ...keys]);
}

/** Escape closes what a list has open beside it (`open`: its id, if any), unless a dialog is over the page. */
export function useEscapeCloses(open: string | null | undefined, close: () => void) {
  const closing = useRef(close);
  closing.current = close;
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (plainKey(e, 'Escape') && !document.querySelector('.overlay')) closing.current();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [open]);
}
