import type { Ref } from 'preact';
import { words } from '../words.js';
import { AddPicture, ChosenPictures, type usePictures } from './pictures.js';

// Where a person writes, under a conversation or a ticket: a refusal in the service's words, the
// line saying a message waits for the connection, the pictures chosen, and the box (Enter sends,
// Shift+Enter breaks the line, pasted pictures are added) with its Send button.

export function Composer(props: {
  /** The textarea's id, so its label names it. */
  id: string;
  label: string;
  placeholder: string;
  text: string;
  setText: (text: string) => void;
  send: (e: Event) => void | Promise<void>;
  pictures: ReturnType<typeof usePictures>;
  sending: boolean;
  online: boolean;
  failed: string;
  input?: Ref<HTMLTextAreaElement>;
}) {
  const { pictures } = props;
  return (
    <>
      {props.failed && (
        <p class="error" role="alert">
          {props.failed}
        </p>
      )}
      {props.sending && !props.online && (
        <p class="status" role="status">
          {words().waitingForConnection}
        </p>
      )}
      <div class="composer-wrap">
        <ChosenPictures pictures={pictures} />
        <form class="composer" onSubmit={(e) => void props.send(e)}>
          <AddPicture pictures={pictures} />
          <label class="visually-hidden" for={props.id}>
            {props.label}
          </label>
          <textarea
            id={props.id}
            ref={props.input}
            rows={1}
            value={props.text}
            onInput={(e) => props.setText((e.target as HTMLTextAreaElement).value)}
            onPaste={(e) => {
              const files = [...(e.clipboardData?.files ?? [])].filter((f) => f.type.startsWith('image/'));
              if (files.length) pictures.add(files);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) void props.send(e);
            }}
            placeholder={props.placeholder}
          />
          <button type="submit" class="primary" disabled={props.sending || pictures.uploading}>
            {words().send}
          </button>
        </form>
      </div>
    </>
  );
}
