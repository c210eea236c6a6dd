import { render } from 'preact';
import { useState } from 'preact/hooks';
import type { MessengerContext, MessengerScreens } from '../context.js';
import { ConversationScreen } from './conversation.js';
import { ArticleScreen } from './help.js';
import { HomeScreen } from './home.js';
import { NoticesScreen } from './notices.js';
import { COMPOSER_CSS, HELP_CSS, LINK_BUTTON_CSS, NOTICES_CSS, SCREENS_CSS } from './styles.js';
import { trapFocus } from './focus.js';
import { PUSH_CSS } from './push.js';
import { chooseWords, languageOf } from '../words.js';

type Place = { screen: 'home' } | { screen: 'conversation'; id?: string } | { screen: 'article'; slug: string } | { screen: 'notices' };

function Messenger({ context }: { context: MessengerContext }) {
  const [place, setPlace] = useState<Place>({ screen: 'home' });
  const home = () => setPlace({ screen: 'home' });
  if (place.screen === 'conversation')
    return <ConversationScreen context={context} id={place.id} back={home} started={(id) => setPlace({ screen: 'conversation', id })} />;
  if (place.screen === 'notices') return <NoticesScreen context={context} back={home} />;
  if (place.screen === 'article') return <ArticleScreen context={context} slug={place.slug} back={home} />;
  return (
    <HomeScreen
      context={context}
      open={(id) => setPlace({ screen: 'conversation', id })}
      read={(slug) => setPlace({ screen: 'article', slug })}
      notices={() => setPlace({ screen: 'notices' })}
    />
  );
}

/** Draws the messenger's screens into the panel (a dialog), with their style in the shadow root. */
export const mount: MessengerScreens['mount'] = (into, context) => {
  const root = into.getRootNode() as ShadowRoot;
  const style = document.createElement('style');
  style.textContent = SCREENS_CSS + COMPOSER_CSS + HELP_CSS + NOTICES_CSS + LINK_BUTTON_CSS + PUSH_CSS;
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
