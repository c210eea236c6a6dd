import { useEffect, useRef } from 'preact/hooks';
import type { components } from '../../../sdk/src/index.js';
import { Blocks, safeLink, type Block } from '../app/blocks.js';
import { focusFirst } from '../app/focus.js';
import type { InAppContext } from '../context.js';
import { words } from '../words.js';

type InAppMessage = components['schemas']['InAppMessage'];

/** A post: a dialog over the page with its picture, words and up to three buttons (the first the main one). */
export function Post({ message, context, done }: { message: InAppMessage; context: InAppContext; done: () => void }) {
  const post = message.post!;
  const image = post.image && safeLink(post.image.url);
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    void context.client.receipt(message, 'seen');
    focusFirst(dialog.current);
  }, [message.id]);
  const dismiss = () => {
    void context.client.receipt(message, 'dismissed');
    done();
  };
  return (
    <div class="inapp-scrim">
      <div class="inapp-post" role="dialog" aria-modal="true" aria-label={words().messageFrom(context.brand.name)} ref={dialog}>
        <button type="button" class="inapp-close" aria-label={words().closeMessage} onClick={dismiss}>
          ✕
        </button>
        {image && <img class="inapp-image" src={image} alt={post.image!.alt ?? ''} />}
        <div class="inapp-words">
          <Blocks blocks={post.blocks as Block[]} />
        </div>
        {(post.buttons ?? []).length > 0 && (
          <div class="inapp-buttons">
            {(post.buttons ?? []).map((b, i) => {
              const link = safeLink(b.link);
              const tapped = () => {
                void context.client.receipt(message, 'clicked', { button: b.id, ...(link ? { link } : {}) });
                if (link) window.open(link, '_blank', 'noopener,noreferrer');
                done();
              };
              return (
                <button key={b.id} type="button" class={i === 0 ? 'main' : 'other'} onClick={tapped}>
                  {b.label}
                </button>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
