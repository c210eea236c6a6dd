import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../api/request';

/**
 * A question before something that cannot be undone; Escape, Cancel or a click beside it leaves it.
 * Cancel takes the focus (the safe choice); closed, the dialog gives it back where it was. A refusal
 * of the action is said in the dialog, which stays open.
 */
export function Confirm(props: {
  title: string;
  action: string;
  children: ComponentChildren;
  onCancel(): void;
  onConfirm(): Promise<void>;
}) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement;
    cancel.current?.focus();
    return () => before instanceof HTMLElement && before.isConnected && before.focus();
  }, []);
  return (
    <div class="overlay" onClick={(e) => e.target === e.currentTarget && props.onCancel()}>
      <div
        class="confirm"
        role="dialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        onKeyDown={(e) => e.code === 'Escape' && (e.preventDefault(), props.onCancel())}
      >
        <h2 id="confirm-title">{props.title}</h2>
        {props.children}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <div class="confirm-actions">
          <button type="button" class="quiet" ref={cancel} onClick={props.onCancel}>
            Cancel
          </button>
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await props.onConfirm();
              } catch (err) {
                setError(messageOf(err));
                setBusy(false);
              }
            }}
          >
            {props.action}
          </button>
        </div>
      </div>
    </div>
  );
}
