import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../sdk/src/index.js';
import { word } from '../../../sdk/src/index.js';
import { Blocks, safeLink, type Block } from '../app/blocks.js';
import { focusFirst } from '../app/focus.js';
import type { InAppContext } from '../context.js';
import { afterButton, afterOption, END, nextOf, pathWith, progressOf, startOf } from './carousel-path.js';
import { words } from '../words.js';

type InAppMessage = components['schemas']['InAppMessage'];
type Screen = components['schemas']['CarouselScreen'];

/** A carousel: its screens one at a time, their buttons and choices following the branches, its progress, and its receipts. */
export function Carousel({ message, context, done }: { message: InAppMessage; context: InAppContext; done: () => void }) {
  const carousel = message.carousel!;
  const [at, setAt] = useState(() => startOf(carousel));
  const [path, setPath] = useState<string[]>(() => [startOf(carousel)]);
  const [picked, setPicked] = useState<string[]>([]);
  const dialog = useRef<HTMLDivElement>(null);
  const screen = carousel.screens.find((s) => s.id === at);
  const progress = progressOf(carousel);
  const index = carousel.screens.findIndex((s) => s.id === at);
  const receipt = context.client.receipt;

  useEffect(() => void receipt(message, 'seen', { screen: startOf(carousel) }), [message.id]);
  useEffect(() => {
    setPicked([]);
    focusFirst(dialog.current?.querySelector('.carousel-screen') as HTMLElement | null);
  }, [at, path.length]);

  const go = (target: string) => {
    if (target === END) {
      void receipt(message, 'completed', { screen: at, path });
      return done();
    }
    setPath((p) => pathWith(p, target));
    setAt(target);
  };
  const dismiss = () => {
    void receipt(message, 'dismissed', { screen: at, path });
    done();
  };
  if (!screen) return null;

  const tapButton = (button: NonNullable<Screen['buttons']>[number]) => {
    const then = afterButton(carousel, at, button);
    const link = 'link' in then ? safeLink(then.link) : undefined;
    void receipt(message, 'clicked', { screen: at, button: button.id, ...(link ? { link } : {}), path });
    if (link) window.open(link, '_blank', 'noopener,noreferrer');
    if ('close' in then) return dismiss();
    go(then.go);
  };
  const choice = screen.choice;
  const tapOption = (option: NonNullable<Screen['choice']>['options'][number]) => {
    if (choice?.multiple) return setPicked((p) => (p.includes(option.id) ? p.filter((x) => x !== option.id) : [...p, option.id]));
    void receipt(message, 'answered', { screen: at, answers: [option.id], path });
    go(afterOption(carousel, at, option));
  };
  const buttons = screen.buttons ?? [];
  const last = nextOf(carousel, at) === END;
  const layout = word(screen.layout, ['centred', 'image_top', 'image_full'], 'unknown');
  const image = screen.image && safeLink(screen.image.url);

  return (
    <div class="inapp-scrim">
      <div class="inapp-post carousel" role="dialog" aria-modal="true" aria-label={words().messageFrom(context.brand.name)} ref={dialog}>
        {carousel.locked ? null : carousel.skip ? (
          <button type="button" class="inapp-close skip" onClick={dismiss}>
            {words().skip}
          </button>
        ) : (
          <button type="button" class="inapp-close" aria-label={words().closeMessage} onClick={dismiss}>
            ✕
          </button>
        )}
        <div class={`carousel-screen layout-${layout}`} key={`${at}-${path.length}`}>
          {image && <img class="inapp-image" src={image} alt={screen.image!.alt ?? ''} />}
          <div class="inapp-words">
            <Blocks blocks={screen.blocks as Block[]} />
          </div>
          {choice && (
            <fieldset class="carousel-choice">
              <legend class="visually-hidden">{choice.multiple ? words().chooseAny : words().chooseOne}</legend>
              {choice.options.map((o) => (
                <button
                  key={o.id}
                  type="button"
                  aria-pressed={choice.multiple ? picked.includes(o.id) : undefined}
                  onClick={() => tapOption(o)}
                >
                  {o.emoji && <span aria-hidden="true">{o.emoji} </span>}
                  {o.label}
                </button>
              ))}
            </fieldset>
          )}
        </div>
        <div class="inapp-buttons">
          {choice?.multiple && (
            <button
              type="button"
              class="main"
              disabled={!picked.length}
              onClick={() => {
                void receipt(message, 'answered', { screen: at, answers: picked, path });
                go(nextOf(carousel, at));
              }}
            >
              {words().continue}
            </button>
          )}
          {!choice &&
            (buttons.length ? (
              buttons.map((b, i) => (
                <button key={b.id} type="button" class={i === 0 ? 'main' : 'other'} onClick={() => tapButton(b)}>
                  {b.label}
                </button>
              ))
            ) : (
              <button type="button" class="main" onClick={() => go(nextOf(carousel, at))}>
                {last ? words().done : words().next}
              </button>
            ))}
        </div>
        {progress !== 'none' && carousel.screens.length > 1 && (
          <div class={`carousel-progress ${progress}`} role="img" aria-label={words().screenOf(index + 1, carousel.screens.length)}>
            {progress === 'dots' ? (
              carousel.screens.map((s) => <span key={s.id} class={s.id === at ? 'dot on' : 'dot'} />)
            ) : (
              <span class="bar" style={{ width: `${Math.round(((index + 1) / carousel.screens.length) * 100)}%` }} />
            )}
          </div>
        )}
      </div>
    </div>
  );
}
