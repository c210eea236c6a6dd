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

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const down = plainKey(e, 'KeyJ');
      if (!down && !plainKey(e, 'KeyK')) return;
      const rows = [...(list.current?.querySelectorAll<HTMLAnchorElement>('a.row') ?? [])];
      if (rows.length === 0) return;
      e.preventDefault();
      const at = rows.findIndex((r) => r === document.activeElement || (document.activeElement === document.body && r.dataset.selected));
      const to = at < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, at + (down ? 1 : -1)));
      rows[to]!.focus();
      rows[to]!.scrollIntoView({ block: 'nearest' });
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);

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
