import { useRef } from 'preact/hooks';
import { useStore } from '../api/store';
import type { ConversationRowFragment } from '../generated/graphql';
import { isUnread, readMarks } from '../read-marks';
import { RowLink } from '../ui/row-link';
import { useMoreWhenSeen, useRowKeys } from '../ui/row-keys';
import { when } from '../ui/time';
import { MoreRow } from '../ui/list-status';

// The inbox's rows: j/k move the focus (by key position, any layout), Enter opens; the next page
// loads when the end of the list comes into view. A row with a part the member has not had on
// screen is marked unread (in words for a screen reader, a dot and bold for the eye).

export function ConversationList(props: {
  rows: ConversationRowFragment[];
  selectedId?: string | undefined;
  onOpen(id: string): void;
  loading: boolean;
  more: boolean;
  onMore(): unknown;
  /** The count of the list's readings ended: the end is looked at again after each. */
  readings: number;
  emptyText: string;
}) {
  const list = useRef<HTMLUListElement>(null);
  const end = useRef<HTMLLIElement>(null);
  useMoreWhenSeen(end, props.onMore, props.more, props.rows, props.readings);
  useRowKeys(list, props.onOpen);
  const marks = useStore(readMarks);

  if (props.loading && props.rows.length === 0) return <p class="quiet-text">Loading…</p>;
  if (props.rows.length === 0) return <p class="quiet-text">{props.emptyText}</p>;
  return (
    <ul class="conversations" ref={list} aria-label="Conversations">
      {props.rows.map((c) => {
        const who = c.contact.displayName || c.contact.email || c.contact.externalId;
        const selected = c.id === props.selectedId;
        const unread = isUnread(marks, c);
        return (
          <li key={c.id}>
            <RowLink id={c.id} href={`#${c.id}`} selected={selected} extraClass={unread ? 'unread' : undefined} onOpen={props.onOpen}>
              <span class="row-top">
                <strong class="who">
                  {unread && <span class="unread-dot" aria-hidden="true" />}
                  {unread && <span class="visually-hidden">Unread: </span>}
                  {who}
                </strong>
                <time dateTime={c.lastActivityAt}>{when(c.lastActivityAt)}</time>
              </span>
              <span class="preview">{c.preview || '(no message yet)'}</span>
              {c.assignee && <span class="assignee">Assigned to {c.assignee.name}</span>}
            </RowLink>
          </li>
        );
      })}
      <MoreRow more={props.more} end={end} />
    </ul>
  );
}
