/** A screen's heading, with a way back (when there is one) and the close button. */
export function Head({ title, back, close }: { title: string; back?: () => void; close: () => void }) {
  return (
    <div class="head">
      {back && (
        <button type="button" onClick={back} aria-label="Back">
          ←
        </button>
      )}
      <h2>{title}</h2>
      <button type="button" onClick={close} aria-label="Close messages">
        ✕
      </button>
    </div>
  );
}
