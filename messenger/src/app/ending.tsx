import { useState } from 'preact/hooks';
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

/** The rating the team asked for: five faces, from bad to great. */
export function RateConversation({ rate }: { rate: (value: number) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  return (
    <fieldset class="rating">
      <legend>{words().howWasOurHelp}</legend>
      {FACES.map((face, i) => (
        <button
          key={face}
          type="button"
          disabled={busy}
          aria-label={words().ratings[i]}
          onClick={() => {
            setBusy(true);
            void rate(i + 1).finally(() => setBusy(false));
          }}
        >
          {face}
        </button>
      ))}
    </fieldset>
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
