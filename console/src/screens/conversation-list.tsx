import { useEffect, useRef } from 'preact/hooks';
import type { ConversationRowFragment } from '../generated/graphql';
import { plainKey } from '../keys';
import { when } from '../ui/time';

// The inbox's rows: j/k move the focus (by key position, any layout), Enter opens; the next page
// loads when the end of the list comes into view.

export function ConversationList(props: {
  rows: ConversationRowFragment[];
  selectedId?: string | undefined;
  onOpen(id: string): void;
  loading: boolean;
  more: boolean;
  onMore(): void;
  emptyText: string;
}) {
  const list = useRef<HTMLUListElement>(null);
  const end = useRef<HTMLLIElement>(null);
  const onMore = useRef(props.onMore);
  onMore.current = props.onMore;

  useEffect(() => {
    if (!end.current) return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onMore.current());
    seen.observe(end.current);
    return () => seen.disconnect();
  }, [props.more]);

  // The row j/k last moved to, by id: kept across renders, so a list read again or a row moved
  // (which takes the focus from a moved element) neither loses the place nor what Enter opens.
  const cursor = useRef<string | null>(null);
  const onOpen = useRef(props.onOpen);
  onOpen.current = props.onOpen;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const rows = [...(list.current?.querySelectorAll<HTMLAnchorElement>('a.row') ?? [])];
      if (rows.length === 0) return;
      if (plainKey(e, 'Enter') || plainKey(e, 'NumpadEnter')) {
        // On the focused row its own handler opened it; with the focus lost to the page, the cursor's row.
        if (e.defaultPrevented || document.activeElement !== document.body || !cursor.current) return;
        if (!rows.some((r) => r.dataset.id === cursor.current)) return;
        e.preventDefault();
        return onOpen.current(cursor.current);
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

  if (props.loading && props.rows.length === 0) return <p class="quiet-text">Loading…</p>;
  if (props.rows.length === 0) return <p class="quiet-text">{props.emptyText}</p>;
  return (
    <ul class="conversations" ref={list} aria-label="Conversations">
      {props.rows.map((c) => {
        const who = c.contact.displayName || c.contact.email || c.contact.externalId;
        const selected = c.id === props.selectedId;
        return (
          <li key={c.id}>
            <a
              class={`row${selected ? ' selected' : ''}`}
              href={`#${c.id}`}
              data-id={c.id}
              data-selected={selected ? 'yes' : undefined}
              aria-current={selected ? 'true' : undefined}
              onClick={(e) => (e.preventDefault(), props.onOpen(c.id))}
              onKeyDown={(e) => {
                if (e.code === 'Enter' || e.code === 'NumpadEnter') {
                  e.preventDefault();
                  props.onOpen(c.id);
                }
              }}
            >
              <span class="row-top">
                <strong class="who">{who}</strong>
                <time dateTime={c.lastActivityAt}>{when(c.lastActivityAt)}</time>
              </span>
              <span class="preview">{c.preview || '(no message yet)'}</span>
              {c.assignee && <span class="assignee">Assigned to {c.assignee.name}</span>}
            </a>
          </li>
        );
      })}
      {props.more && (
        <li ref={end} class="quiet-text">
          Loading more…
        </li>
      )}
    </ul>
  );
}
