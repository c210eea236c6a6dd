import type { Part } from '../../../sdk/src/index.js';
import { word } from '../../../sdk/src/index.js';
import { Blocks } from './blocks.js';
import { words } from '../words.js';

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
            {mine && <span class="visually-hidden">{words().you}</span>}
            <Blocks blocks={p.blocks} />
            {p.attachments.length > 0 && (
              <span class="pictures">
                {p.attachments.map((a, i) => (
                  <img
                    key={a.id}
                    src={a.url}
                    width={a.width ?? undefined}
                    height={a.height ?? undefined}
                    alt={words().picture(i + 1)}
                    loading="lazy"
                  />
                ))}
              </span>
            )}
            {p.rating && <p>{words().rated(p.rating.value)}</p>}
          </li>
        );
      })}
    </ol>
  );
}
