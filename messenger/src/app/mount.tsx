import { render } from 'preact';
import { useState } from 'preact/hooks';
import type { MessengerContext, MessengerScreens } from '../context.js';
import { ConversationScreen } from './conversation.js';
import { ArticleScreen } from './help.js';
import { CollectionScreen, CollectionsScreen } from './collections.js';
import { PreferencesScreen } from './preferences.js';
import { HomeScreen } from './home.js';
import { NoticesScreen } from './notices.js';
import { TicketsScreen } from './tickets.js';
import { TicketScreen } from './tickets-ticket.js';
import { TICKETS_CSS } from './tickets-styles.js';
import { COMPOSER_CSS, HELP_CSS, LINK_BUTTON_CSS, NOTICES_CSS, PREFERENCES_CSS, SCREENS_CSS } from './styles.js';
import { trapFocus } from './focus.js';
import { PUSH_CSS } from './push.js';
import { chooseWords, languageOf } from '../words.js';

type Place =
  | { screen: 'home'; returnTo?: string }
  | { screen: 'conversation'; id?: string }
  | { screen: 'article'; slug: string; back?: Place }
  | { screen: 'notices' }
  | { screen: 'preferences' }
  | { screen: 'collections'; from?: string }
  | { screen: 'collection'; slug: string; from?: string }
  | { screen: 'tickets'; returnTo?: string }
  | { screen: 'ticket'; id: string; from: 'home' | 'tickets' };

function Messenger({ context }: { context: MessengerContext }) {
  const [place, setPlace] = useState<Place>({ screen: 'home' });
  const home = () => setPlace({ screen: 'home' });
  if (place.screen === 'conversation')
    return <ConversationScreen context={context} id={place.id} back={home} started={(id) => setPlace({ screen: 'conversation', id })} />;
  if (place.screen === 'notices') return <NoticesScreen context={context} back={home} />;
  if (place.screen === 'article')
    return <ArticleScreen context={context} slug={place.slug} back={() => setPlace(place.back ?? { screen: 'home' })} />;
  if (place.screen === 'preferences')
    return <PreferencesScreen context={context} back={() => setPlace({ screen: 'home', returnTo: '[data-place="preferences"]' })} />;
  if (place.screen === 'collections')
    return (
      <CollectionsScreen
        context={context}
        from={place.from}
        back={() => setPlace({ screen: 'home', returnTo: '[data-place="collections"]' })}
        open={(slug) => setPlace({ screen: 'collection', slug })}
      />
    );
  if (place.screen === 'collection') {
    const { slug } = place;
    return (
      <CollectionScreen
        context={context}
        slug={slug}
        from={place.from}
        back={() => setPlace({ screen: 'collections', from: slug })}
        read={(article) => setPlace({ screen: 'article', slug: article, back: { screen: 'collection', slug, from: article } })}
      />
    );
  }
  if (place.screen === 'tickets')
    return (
      <TicketsScreen
        context={context}
        back={() => setPlace({ screen: 'home', returnTo: '.all-tickets' })}
        open={(id) => setPlace({ screen: 'ticket', id, from: 'tickets' })}
        returnTo={place.returnTo}
      />
    );
  if (place.screen === 'ticket') {
    const { id, from } = place;
    const back = () =>
      setPlace(from === 'tickets' ? { screen: 'tickets', returnTo: id } : { screen: 'home', returnTo: `[data-ticket="${id}"]` });
    return <TicketScreen context={context} id={id} back={back} />;
  }
  return (
    <HomeScreen
      context={context}
      open={(id) => setPlace({ screen: 'conversation', id })}
      read={(slug) => setPlace({ screen: 'article', slug })}
      notices={() => setPlace({ screen: 'notices' })}
      preferences={() => setPlace({ screen: 'preferences' })}
      collections={() => setPlace({ screen: 'collections' })}
      ticket={(id) => setPlace({ screen: 'ticket', id, from: 'home' })}
      tickets={() => setPlace({ screen: 'tickets' })}
      returnTo={place.returnTo}
    />
  );
}

/** Draws the messenger's screens into the panel (a dialog), with their style in the shadow root. */
export const mount: MessengerScreens['mount'] = (into, context) => {
  const root = into.getRootNode() as ShadowRoot;
  const style = document.createElement('style');
  style.textContent = SCREENS_CSS + COMPOSER_CSS + HELP_CSS + NOTICES_CSS + LINK_BUTTON_CSS + PREFERENCES_CSS + TICKETS_CSS + PUSH_CSS;
  root.prepend(style);
  into.setAttribute('role', 'dialog');
  into.setAttribute('aria-modal', 'true');
  const w = chooseWords(context.language);
  into.setAttribute('aria-label', w.messagesFrom(context.brand.name));
  into.setAttribute('lang', languageOf(context.language));
  const untrap = trapFocus(into, context.close);
  render(<Messenger context={context} />, into);
  return {
    unmount() {
      untrap();
      render(null, into);
      style.remove();
    },
  };
};
