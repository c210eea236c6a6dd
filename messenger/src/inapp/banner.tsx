import { useEffect } from 'preact/hooks';
import type { components } from '../../../sdk/src/index.js';
import { word } from '../../../sdk/src/index.js';
import { Blocks, safeLink, type Block } from '../app/blocks.js';
import type { InAppContext } from '../context.js';
import { words } from '../words.js';

type InAppMessage = components['schemas']['InAppMessage'];

/** A banner: a bar across the top (or the bottom) of the page, its words, its link, and a way to dismiss it. */
export function Banner({ message, context, done }: { message: InAppMessage; context: InAppContext; done: () => void }) {
  const banner = message.banner!;
  const link = safeLink(banner.link);
  const position = word(banner.position, ['top', 'bottom'], 'top');
  useEffect(() => void context.client.receipt(message, 'seen'), [message.id]);
  return (
    <div class={`inapp-banner ${position}`} role="region" aria-label={words().announcementFrom(context.brand.name)}>
      <div class="inapp-words">
        <Blocks blocks={banner.blocks as Block[]} />
      </div>
      {link && (
        <a href={link} target="_blank" rel="noopener noreferrer" onClick={() => void context.client.receipt(message, 'clicked', { link })}>
          {words().open}
        </a>
      )}
      {banner.dismissible !== false && (
        <button
          type="button"
          class="inapp-close"
          aria-label={words().dismissAnnouncement}
          onClick={() => {
            void context.client.receipt(message, 'dismissed');
            done();
          }}
        >
          ✕
        </button>
      )}
    </div>
  );
}
