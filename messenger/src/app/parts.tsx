import type { ComponentChild } from 'preact';
import type { Part } from '../../../sdk/src/index.js';
import { word } from '../../../sdk/src/index.js';

type Block = Part['blocks'][number];
type Span = NonNullable<Block['spans']>[number];

const safeLink = (link: string | undefined) => (link && /^https:\/\//i.test(link) ? link : undefined);

function SpanText({ span }: { span: Span }) {
  let out: ComponentChild = span.text;
  if (span.bold) out = <strong>{out}</strong>;
  if (span.italic) out = <em>{out}</em>;
  const href = safeLink(span.link);
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {out}
    </a>
  ) : (
    <>{out}</>
  );
}

/** A part's blocks: paragraphs drawn; a block type this messenger does not know is left out. */
export function Blocks({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((b, i) =>
        word(b.type, ['paragraph'], 'unknown') === 'paragraph' ? (
          <p key={i}>
            {(b.spans ?? []).map((s, j) => (
              <SpanText key={j} span={s} />
            ))}
          </p>
        ) : null,
      )}
    </>
  );
}

export function Parts({ parts }: { parts: Part[] }) {
  return (
    <ol class="parts">
      {parts.map((p) => {
        const who = word(p.author.kind, ['user', 'teammate', 'bot', 'system'], 'system');
        const kind = word(p.kind, ['message', 'event', 'rating', 'bot'], 'message');
        const mine = who === 'user';
        return (
          <li key={p.id} class={`part${mine ? ' mine' : ''}${kind === 'event' ? ' event' : ''}`}>
            {!mine && kind !== 'event' && <span class="who">{p.author.name}</span>}
            {mine && <span class="visually-hidden">You: </span>}
            <Blocks blocks={p.blocks} />
            {p.attachments.length > 0 && (
              <span class="pictures">
                {p.attachments.map((a, i) => (
                  <img
                    key={a.id}
                    src={a.url}
                    width={a.width ?? undefined}
                    height={a.height ?? undefined}
                    alt={`Picture ${i + 1}`}
                    loading="lazy"
                  />
                ))}
              </span>
            )}
            {p.rating && <p>{`Rated ${p.rating.value} of 5`}</p>}
          </li>
        );
      })}
    </ol>
  );
}
