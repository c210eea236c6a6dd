import type { ComponentChildren, RefObject } from 'preact';

// What a paged list shows around its rows: a refusal, the first read under way, nothing to show
// (in the list's own words); and its last row, which reads the next page as it scrolls into view.

export function ListStatus(props: { error?: string | null; loading: boolean; count: number; empty: string; children: ComponentChildren }) {
  return (
    <>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      {props.loading && props.count === 0 ? (
        <p class="quiet-text">Loading…</p>
      ) : props.count === 0 ? (
        <p class="quiet-text">{props.empty}</p>
      ) : (
        props.children
      )}
    </>
  );
}

/** A list's last row while there is more to read: seen, it reads the next page. */
export function MoreRow(props: { more: boolean; end: RefObject<HTMLLIElement | null> }) {
  return props.more ? (
    <li ref={props.end} class="quiet-text">
      Loading more…
    </li>
  ) : null;
}
