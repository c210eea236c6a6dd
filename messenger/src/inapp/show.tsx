import { render } from 'preact';
import type { components } from '../../../sdk/src/index.js';
import { word } from '../../../sdk/src/index.js';
import type { InAppLayer } from '../context.js';
import { trapFocus } from '../app/focus.js';
import { Banner } from './banner.js';
import { Carousel } from './carousel.js';
import { Post } from './post.js';
import { SurveyMessage } from './survey.js';
import { chooseWords, languageOf } from '../words.js';
import { CAROUSEL_CSS, INAPP_CSS, SURVEY_CSS } from './styles.js';

type InAppMessage = components['schemas']['InAppMessage'];

/** The kinds this messenger draws (a newer kind is left for a newer messenger). */
const DRAWN = ['banner', 'post', 'carousel', 'survey'] as const;

/**
 * In-app messages from the check-ins, drawn over the page in the messenger's shadow root: one banner at a
 * time, and one large message (a post, a carousel or a survey) at a time, the next when it is closed. A message the check-ins
 * answer again while it is shown, or after it was closed, is not drawn again on this page.
 */
export const show: InAppLayer['show'] = (root, context) => {
  const style = document.createElement('style');
  style.textContent = INAPP_CSS + CAROUSEL_CSS + SURVEY_CSS;
  root.append(style);
  chooseWords(context.language);
  const bannerSlot = document.createElement('div');
  const largeSlot = document.createElement('div');
  bannerSlot.lang = largeSlot.lang = languageOf(context.language);
  root.append(bannerSlot, largeSlot);
  const handled = new Set<string>();
  const waiting: InAppMessage[] = [];
  let banner: InAppMessage | undefined;
  let large: InAppMessage | undefined;
  let untrap: (() => void) | undefined;
  let focusBefore: Element | null = null;

  const drawBanner = () =>
    render(
      banner ? (
        <Banner
          message={banner}
          context={context}
          done={() => {
            banner = undefined;
            drawBanner();
            next();
          }}
        />
      ) : null,
      bannerSlot,
    );

  const drawLarge = () => {
    untrap?.();
    untrap = undefined;
    if (!large) {
      render(null, largeSlot);
      (focusBefore as HTMLElement | null)?.focus?.();
      return;
    }
    focusBefore = document.activeElement;
    const close = () => {
      large = undefined;
      drawLarge();
      next();
    };
    const Large = large.kind === 'survey' ? SurveyMessage : large.kind === 'carousel' ? Carousel : Post;
    render(<Large message={large} context={context} done={close} />, largeSlot);
    const dialog = largeSlot.querySelector<HTMLElement>('[role="dialog"]');
    if (dialog) untrap = trapFocus(dialog, () => dialog.querySelector<HTMLButtonElement>('.inapp-close')?.click());
  };

  /** The next waiting message that can be drawn now. */
  const next = () => {
    for (let i = 0; i < waiting.length; i++) {
      const m = waiting[i]!;
      const kind = word(m.kind, DRAWN, 'unknown');
      if (kind === 'banner' && !banner) {
        waiting.splice(i--, 1);
        banner = m;
        drawBanner();
      } else if ((kind === 'post' || kind === 'carousel' || kind === 'survey') && !large) {
        waiting.splice(i--, 1);
        large = m;
        drawLarge();
      }
    }
  };

  return {
    add(messages) {
      for (const m of messages) {
        if (handled.has(m.id)) continue;
        handled.add(m.id);
        if (word(m.kind, DRAWN, 'unknown') === 'unknown') continue;
        waiting.push(m);
      }
      next();
    },
  };
};
