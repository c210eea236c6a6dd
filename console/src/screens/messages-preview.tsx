import { useState } from 'preact/hooks';

// A message as the person will see it, in a card: a banner's or post's words and buttons; a
// carousel one screen at a time, stepped through as the app would: a button goes to its screen (or
// where its screen's `next` goes, `close` leaves), a single-choice option to its `next`, a screen
// without buttons has the default Next (Done at the end). The path taken is kept for Back.

type Span = { text?: string; bold?: boolean; italic?: boolean };
type Block = { type?: string; spans?: Span[]; items?: { spans?: Span[] }[]; alt?: string; label?: string };
type Button = { id?: string; label?: string; do?: string; screen?: string };
type Screen = {
  id?: string;
  blocks?: Block[];
  buttons?: Button[];
  next?: string;
  choice?: { multiple?: boolean; options?: { id?: string; label?: string; next?: string }[] };
};

const END = 'end';

function Spans({ spans }: { spans?: Span[] | undefined }) {
  return (
    <>
      {(spans ?? []).map((s, i) => {
        const text = s.text ?? '';
        return s.bold ? <strong key={i}>{text}</strong> : s.italic ? <em key={i}>{text}</em> : <span key={i}>{text}</span>;
      })}
    </>
  );
}

function Blocks({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((b, i) =>
        b.type === 'heading' ? (
          <p key={i} class="preview-heading">
            <Spans spans={b.spans} />
          </p>
        ) : b.items ? (
          <ul key={i}>
            {b.items.map((item, j) => (
              <li key={j}>
                <Spans spans={item.spans} />
              </li>
            ))}
          </ul>
        ) : b.type === 'image' ? (
          <p key={i} class="preview-picture">
            [Picture: {b.alt || 'no description'}]
          </p>
        ) : b.type === 'link' ? (
          <p key={i}>
            <span class="preview-button">{b.label}</span>
          </p>
        ) : (
          <p key={i}>
            <Spans spans={b.spans} />
          </p>
        ),
      )}
    </>
  );
}

export function MessagePreview({ kind, content }: { kind: string; content: unknown }) {
  const c = (content ?? {}) as { blocks?: Block[]; buttons?: Button[]; screens?: Screen[]; start?: string };
  if (kind === 'survey') {
    // A survey's questions in the order written (the survey editor's steps, as they are typed).
    const steps = (content as { steps?: { questions?: { id: string; title: string }[] }[] } | null)?.steps ?? [];
    return (
      <div class="message-preview preview-survey" role="group" aria-label="Preview">
        <ol>
          {steps
            .flatMap((s) => s.questions ?? [])
            .map((q) => (
              <li key={q.id}>{q.title}</li>
            ))}
        </ol>
      </div>
    );
  }
  if (kind !== 'carousel')
    return (
      <div class={`message-preview preview-${kind}`} role="group" aria-label="Preview">
        <Blocks blocks={c.blocks ?? []} />
        {(c.buttons ?? []).length > 0 && (
          <p class="preview-buttons">
            {c.buttons!.map((b, i) => (
              <span key={i} class="preview-button">
                {b.label}
              </span>
            ))}
          </p>
        )}
      </div>
    );
  return <CarouselPreview screens={c.screens ?? []} start={c.start} />;
}

function CarouselPreview({ screens, start }: { screens: Screen[]; start?: string | undefined }) {
  const first = Math.max(0, start ? screens.findIndex((s) => s.id === start) : 0);
  const [path, setPath] = useState<number[]>([first]);
  const at = path.at(-1)!;
  const screen = screens[at];
  /** The screen a target leads to from screen `i`: its index, or -1 for the end. */
  const go = (target: string | undefined) => {
    const next = screen?.next;
    const to = target || next;
    const index = !to ? (at + 1 < screens.length ? at + 1 : -1) : to === END ? -1 : screens.findIndex((s) => s.id === to);
    setPath([...path, index]);
  };
  const reset = () => setPath([first]);
  const live = (
    <p class="visually-hidden" role="status">
      {screen ? `Screen ${at + 1} of ${screens.length}` : at === -1 ? 'The end' : ''}
    </p>
  );
  if (!screen)
    return (
      <div class="message-preview preview-carousel" role="group" aria-label="Preview">
        <p class="preview-end">{at === -1 ? 'The carousel ends here.' : 'This screen is not there (yet).'}</p>
        <p class="preview-buttons">
          <button type="button" class="small" onClick={reset}>
            Start again
          </button>
        </p>
        {live}
      </div>
    );
  const buttons = screen.buttons ?? [];
  const single = screen.choice && !screen.choice.multiple;
  return (
    <div class="message-preview preview-carousel" role="group" aria-label="Preview" data-screen={screen.id}>
      <p class="preview-step">
        Screen {at + 1} of {screens.length} ({screen.id})
      </p>
      <Blocks blocks={screen.blocks ?? []} />
      {screen.choice && (
        <p class="preview-buttons" role="group" aria-label="Choice">
          {(screen.choice.options ?? []).map((o) => (
            <button key={o.id} type="button" class="quiet small" onClick={() => single && go(o.next)}>
              {o.label}
            </button>
          ))}
        </p>
      )}
      <p class="preview-buttons">
        {buttons.map((b) => (
          <button key={b.id} type="button" class="small" onClick={() => (b.do === 'close' ? setPath([...path, -1]) : go(b.screen))}>
            {b.label}
          </button>
        ))}
        {!buttons.length && !single && (
          <button type="button" class="small" onClick={() => go(undefined)}>
            {screen.next === END || (!screen.next && at === screens.length - 1) ? 'Done' : 'Next'}
          </button>
        )}
        {path.length > 1 && (
          <button type="button" class="quiet small" onClick={() => setPath(path.slice(0, -1))}>
            Back
          </button>
        )}
      </p>
      {live}
    </div>
  );
}
