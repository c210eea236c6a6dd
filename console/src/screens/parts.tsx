import { useEffect, useRef } from 'preact/hooks';
import type { PartFragment } from '../generated/graphql';
import { fullTime } from '../ui/time';

// A conversation's parts, oldest first: the person's and the team's messages, notes (marked, never
// shown to the person), and event lines. Newer pages load as their end comes into view; the view
// keeps to the newest part while it is there.

/**
 * An event line's words. A snooze's line names its time as the service wrote it (ISO, in UTC); the
 * part carries that time in `data.until`, shown here in the reader's own time zone and words.
 */
export function eventText(p: PartFragment): string {
  const until = (p.data as { until?: unknown } | null)?.until;
  if (p.event === 'snoozed' && typeof until === 'string' && p.text.includes(until) && !Number.isNaN(Date.parse(until)))
    return p.text.replace(until, fullTime(until));
  return p.text || p.event || '';
}

export function Parts({
  parts,
  more,
  onMore,
  authorName,
}: {
  parts: PartFragment[];
  more: boolean;
  onMore(): void;
  /** The name to show: the person's own for their parts (a guest's are stored as "User"). */
  authorName(p: PartFragment): string;
}) {
  const box = useRef<HTMLOListElement>(null);
  const end = useRef<HTMLLIElement>(null);
  const onMoreRef = useRef(onMore);
  onMoreRef.current = onMore;
  const atBottom = useRef(true);

  useEffect(() => {
    if (!end.current) return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onMoreRef.current());
    seen.observe(end.current);
    return () => seen.disconnect();
  }, [more]);

  useEffect(() => {
    const el = box.current;
    if (el && atBottom.current && !more) el.scrollTop = el.scrollHeight;
  }, [parts.length, more]);

  return (
    <ol
      class="parts"
      ref={box}
      aria-label="Messages"
      aria-live="polite"
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      {parts.map((p) => (
        <li key={p.id} class={`part part-${p.kind} by-${p.author.kind}${p.internal ? ' internal' : ''}`} data-seq={p.seq}>
          {p.kind === 'event' ? (
            <p class="event-line">
              {eventText(p)} · <time dateTime={p.createdAt}>{fullTime(p.createdAt)}</time>
            </p>
          ) : (
            <article aria-label={`${p.kind === 'note' ? 'Note' : 'Message'} from ${authorName(p)}`}>
              <p class="part-head">
                <strong>{authorName(p)}</strong>
                {p.kind === 'note' && <span class="badge">Internal note</span>}
                <time dateTime={p.createdAt}>{fullTime(p.createdAt)}</time>
              </p>
              <p class="part-text">{p.text}</p>
            </article>
          )}
        </li>
      ))}
      {more && (
        <li ref={end} class="quiet-text">
          Loading more…
        </li>
      )}
    </ol>
  );
}
