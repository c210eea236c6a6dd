import { words } from '../words.js';

/** A screen's heading, with a way back (when there is one) and the close button. */
export function Head({ title, back, close }: { title: string; back?: () => void; close: () => void }) {
  return (
    <div class="head">
      {back && (
        <button type="button" onClick={back} aria-label={words().back}>
          ←
        </button>
      )}
      <h2>{title}</h2>
      <button type="button" onClick={close} aria-label={words().closeMessages}>
        ✕
      </button>
    </div>
  );
}
