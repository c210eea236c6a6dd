import { useEffect, useRef } from 'preact/hooks';
import type { PartFragment } from '../generated/graphql';
import { fullTime } from '../ui/time';
import { sameOrigin } from './composer-pictures';
import { cameByEmail, PartEmail } from './part-email';

// A conversation's parts, oldest first: the person's and the team's messages, notes (marked, never
// shown to the person), and event lines. It opens at the latest page, scrolled to the newest part;
// older pages load as their start comes into view. A long conversation stays light: only the pages
// read are in the page, and the browser skips laying out and painting the parts off screen
// (content-visibility in styles.css). The scroller's origin is its end (a reversed column in
// styles.css): whatever changes the list's height (a page above, a new part, a part laid out for
// the first time as it comes into view), the view keeps its distance from the end, at the end
// while the reader is there, and what they read stays put.

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

/**
 * A part's pictures, the person's or the team's, each opening whole in a new tab. Their addresses
 * are the store's, made this page's own (sameOrigin: the console's policy loads images from it only).
 */
function PartPictures({ part, from }: { part: PartFragment; from: string }) {
  const n = part.pictures.length;
  return (
    <ul class="part-pictures">
      {part.pictures.map((pic, i) => (
        <li key={pic.id}>
          <a href={sameOrigin(pic.url)} target="_blank" rel="noopener">
            <img
              src={sameOrigin(pic.url)}
              alt={n > 1 ? `Picture ${i + 1} of ${n} from ${from}` : `Picture from ${from}`}
              width={pic.width ?? undefined}
              height={pic.height ?? undefined}
              loading="lazy"
            />
          </a>
        </li>
      ))}
    </ul>
  );
}

export function Parts({
  parts,
  older,
  onOlder,
  authorName,
}: {
  parts: PartFragment[];
  /** Whether older pages are left to read. */
  older: boolean;
  onOlder(): void;
  /** The name to show: the person's own for their parts (a guest's are stored as "User"). */
  authorName(p: PartFragment): string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const start = useRef<HTMLLIElement>(null);
  const onOlderRef = useRef(onOlder);
  onOlderRef.current = onOlder;

  useEffect(() => {
    if (!start.current) return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onOlderRef.current(), {
      root: box.current,
      rootMargin: '400px 0px 0px 0px',
    });
    seen.observe(start.current);
    return () => seen.disconnect();
  }, [older, parts[0]?.id]);

  return (
    <div class="parts" ref={box} role="region" aria-label="Messages" tabIndex={0}>
      <ol class="parts-list" aria-live="polite">
        {older && (
          <li ref={start} class="quiet-text">
            Loading earlier messages…
          </li>
        )}
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
                {p.text && <p class="part-text">{p.text}</p>}
                {p.pictures.length > 0 && <PartPictures part={p} from={authorName(p)} />}
                {cameByEmail(p) && <PartEmail conversationId={p.conversationId} partId={p.id} />}
              </article>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
