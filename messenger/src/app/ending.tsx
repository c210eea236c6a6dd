import { useEffect, useRef, useState } from 'preact/hooks';
import type { Part } from '../../../sdk/src/index.js';
import { words } from '../words.js';

/** Whether the conversation's latest close asked the person to rate it, and they have not. */
export function ratingAsked(parts: Part[]): boolean {
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i]!;
    if (p.kind === 'rating') return false;
    if (p.kind === 'event' && p.event === 'reopened') return false;
    if (p.kind === 'event' && p.event === 'closed') return p.rating_asked === true;
  }
  return false;
}

const FACES = ['😞', '🙁', '😐', '🙂', '😀'];

/** A rating's remark is at most this long (the guest API's RatingBody). */
export const MAX_REMARK = 1_000;

/**
 * The rating the team asked for: five faces, from bad to great; the one tapped is chosen, then an optional remark and
 * "Send rating" send both at once (a rating is given once).
 */
export function RateConversation({ rate }: { rate: (value: number, remark: string | null) => Promise<void> }) {
  const [chosen, setChosen] = useState<number | undefined>();
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (chosen !== undefined) box.current?.focus();
  }, [chosen === undefined]);
  const send = (event: Event) => {
    event.preventDefault();
    if (chosen === undefined || busy) return;
    setBusy(true);
    void rate(chosen, remark.trim() || null).finally(() => setBusy(false));
  };
  return (
    <form class="rate" onSubmit={send}>
      <fieldset class="rating">
        <legend>{words().howWasOurHelp}</legend>
        {FACES.map((face, i) => (
          <button
            key={face}
            type="button"
            disabled={busy}
            aria-label={words().ratings[i]}
            aria-pressed={chosen === i + 1}
            onClick={() => setChosen(i + 1)}
          >
            {face}
          </button>
        ))}
      </fieldset>
      {chosen !== undefined && (
        <>
          <label for="crm-remark">{words().remark}</label>
          <textarea
            id="crm-remark"
            ref={box}
            rows={2}
            maxLength={MAX_REMARK}
            value={remark}
            onInput={(e) => setRemark(e.currentTarget.value)}
          />
          <button type="submit" class="primary" disabled={busy}>
            {words().sendRating}
          </button>
        </>
      )}
    </form>
  );
}

/** The bot's part the person may answer now: the latest part, when it is the bot's and asks something. */
export function askingBotPart(parts: Part[]): Part | undefined {
  const last = parts.at(-1);
  return last && last.kind === 'bot' && (last.buttons?.length || last.question) ? last : undefined;
}

/** The bot's buttons, tapped instead of writing. */
export function BotButtons({ part, tap }: { part: Part; tap: (button: string) => void }) {
  if (!part.buttons?.length) return null;
  return (
    <div class="bot-buttons" role="group" aria-label={words().chooseAnAnswer}>
      {part.buttons.map((b) => (
        <button key={b.id} type="button" onClick={() => tap(b.id)}>
          {b.label}
        </button>
      ))}
    </div>
  );
}
