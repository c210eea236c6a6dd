import type { PartFragment } from '../generated/graphql';
import { fullTime } from '../ui/time';

// What a held reply or note is shown first: the parts by someone else that came after the writer's
// `seenPartSeq` (`newer_parts`), with the draft kept, and the choice to send it anyway or edit it.

export interface NewerParts {
  count: number;
  lastSeq: number;
  parts: { id: string; seq: number; kind: string; authorKind: string }[];
}

export const newerPartsOf = (extensions: Record<string, unknown>) => extensions['newerParts'] as NewerParts | undefined;

const AUTHORS: Record<string, string> = { contact: 'the person', staff: 'a teammate', bot: 'the bot', system: 'the service' };

export function HeldParts(props: {
  held: NewerParts;
  known: Map<string, PartFragment>;
  authorName(p: PartFragment): string;
  onSendAnyway(): void;
  onEdit(): void;
}) {
  const { held, known } = props;
  const more = held.count - held.parts.length;
  return (
    <section class="held" role="alert" aria-labelledby="held-title">
      <h3 id="held-title">
        {held.count === 1 ? 'Not sent: an update came while you wrote' : `Not sent: ${held.count} updates came while you wrote`}
      </h3>
      <ol class="held-parts">
        {held.parts.map((n) => {
          const p = known.get(n.id);
          return (
            <li key={n.id} class={p?.internal ? 'internal' : ''}>
              {p?.kind === 'event' ? (
                <p class="event-line">{p.text || p.event}</p>
              ) : p ? (
                <>
                  <strong>{props.authorName(p)}</strong>
                  {p.kind === 'note' && <span class="badge">Internal note</span>}{' '}
                  <time dateTime={p.createdAt}>{fullTime(p.createdAt)}</time>
                  <p class="part-text">{p.text || p.event}</p>
                </>
              ) : (
                <span>{`A ${n.kind} by ${AUTHORS[n.authorKind] ?? n.authorKind} (part ${n.seq})`}</span>
              )}
            </li>
          );
        })}
        {more > 0 && <li class="quiet-text">{`and ${more} more above`}</li>}
      </ol>
      <div class="held-actions">
        <button type="button" class="quiet" onClick={props.onEdit}>
          Edit first
        </button>
        <button type="button" onClick={props.onSendAnyway}>
          Send anyway
        </button>
      </div>
    </section>
  );
}
