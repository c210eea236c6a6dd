import type { components } from '../../../sdk/src/index.js';
import { word } from '../../../sdk/src/index.js';
import { safeLink } from './blocks.js';

type Card = components['schemas']['MessengerHome']['cards'][number];

const KINDS = ['message', 'link', 'article'] as const;

/** Where a link card leads on a website: an https address, or a path of the site the messenger is on. */
export const cardLink = (link: string | undefined, origin: string): string | undefined =>
  link?.startsWith('/') && !link.startsWith('//') ? `${origin}${link}` : safeLink(link);

/**
 * The home's cards, in the order staff published them: a message card starts a conversation, an
 * article card opens the article, a link card opens its address (a path: of this site) in a new tab.
 * A card of a kind this messenger does not know, or a link it cannot open, is left out.
 */
export function HomeCards(props: { cards: Card[]; write: () => void; read: (slug: string) => void }) {
  const shown = props.cards.filter((c) => {
    const kind = word(c.kind, KINDS, 'unknown');
    return kind === 'message' || (kind === 'article' && c.article_slug) || (kind === 'link' && cardLink(c.link, location.origin));
  });
  if (!shown.length) return null;
  return (
    <ul class="home-cards">
      {shown.map((c) => {
        const go = () => {
          if (c.kind === 'message') props.write();
          else if (c.kind === 'article') props.read(c.article_slug!);
          else window.open(cardLink(c.link, location.origin), '_blank', 'noopener,noreferrer');
        };
        return (
          <li key={c.id}>
            <button type="button" class="card home-card" onClick={go}>
              <span class="home-card-title">{c.title}</span>
              {c.text && <span class="home-card-text">{c.text}</span>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
