import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf, Refusal, request } from '../api/request';
import { CreateConversationPictureDocument, type ConversationPictureType } from '../generated/graphql';
import './composer-pictures.css';

// Pictures in a reply or note: chosen by the button (a real file input), pasted into the text or
// dropped on the composer; each is made for the conversation (createConversationPicture) and its
// bytes PUT at the address given, shown as a thumbnail with its progress, or why it failed, and a
// button to remove it. Up to four; the reply names the ids of those uploaded. They are kept per
// conversation while the tab is open (leaving the conversation and coming back keeps them), not
// across a reload: the service sweeps pictures not sent within an hour.

export const MAX_PICTURES = 4;
const MAX_BYTES = 10 * 1024 * 1024;
const TYPES: Record<string, ConversationPictureType> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
export const ACCEPT = Object.keys(TYPES).join(',');

export interface ComposerPicture {
  key: number;
  name: string;
  /** The thumbnail: the file itself, read in the page (a blob: address). */
  preview: string;
  state: 'uploading' | 'ready' | 'failed';
  /** 0 to 1 while uploading. */
  progress: number;
  /** Once made: the id the reply names. */
  id?: string;
  error?: string;
}

/**
 * A blob store address as this page's own: the service's store answers at `/blobs/…` on every
 * address it is reached at, and the console's policy allows images and requests from its own origin only.
 */
export function sameOrigin(url: string): string {
  try {
    const u = new URL(url, location.href);
    return u.pathname.startsWith('/blobs/') ? u.pathname : url;
  } catch {
    return url;
  }
}

type Listener = (pictures: ComposerPicture[]) => void;

/** One conversation's pictures, outliving its composer (uploads go on while it is closed). */
class Pictures {
  list: ComposerPicture[] = [];
  private listeners = new Set<Listener>();
  constructor(private readonly conversationId: string) {}

  subscribe(f: Listener) {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }
  private set(list: ComposerPicture[]) {
    this.list = list;
    for (const f of this.listeners) f(list);
  }
  private patch(key: number, change: Partial<ComposerPicture>) {
    this.set(this.list.map((p) => (p.key === key ? { ...p, ...change } : p)));
  }

  /** Takes the files it can (pictures of the four types, up to 10 MB, up to four in all); why others were not taken. */
  add(files: File[]): string | undefined {
    const problems: string[] = [];
    for (const file of files) {
      const type = TYPES[file.type];
      if (!type) problems.push(`${file.name || 'That file'} is not a JPEG, PNG, GIF or WebP picture.`);
      else if (file.size > MAX_BYTES) problems.push(`${file.name || 'That picture'} is larger than 10 MB.`);
      else if (this.list.length >= MAX_PICTURES) problems.push(`A reply holds at most ${MAX_PICTURES} pictures.`);
      else this.upload(file, type);
    }
    return [...new Set(problems)].join(' ') || undefined;
  }

  private upload(file: File, type: ConversationPictureType) {
    const key = nextKey++;
    const name = file.name && file.name !== 'image.png' ? file.name : 'Pasted picture';
    this.set([...this.list, { key, name, preview: URL.createObjectURL(file), state: 'uploading', progress: 0 }]);
    void (async () => {
      try {
        const { createConversationPicture: up } = await request(CreateConversationPictureDocument, {
          conversationId: this.conversationId,
          type,
          size: file.size,
        });
        if (!this.has(key)) return;
        await put(up.uploadUrl, up.uploadMethod, up.uploadHeaders as Record<string, string>, file, (progress) =>
          this.patch(key, { progress }),
        );
        this.patch(key, { state: 'ready', progress: 1, id: up.id });
      } catch (err) {
        this.patch(key, { state: 'failed', error: err instanceof Error && !(err instanceof Refusal) ? err.message : messageOf(err) });
      }
    })();
  }

  private has(key: number) {
    return this.list.some((p) => p.key === key);
  }

  remove(key: number) {
    const gone = this.list.find((p) => p.key === key);
    if (gone) URL.revokeObjectURL(gone.preview);
    this.set(this.list.filter((p) => p.key !== key));
  }

  /** After sending: the pictures are the part's now. */
  clear() {
    for (const p of this.list) URL.revokeObjectURL(p.preview);
    this.set([]);
  }

  /** A refusal naming `attachmentIds.<i>` (the i-th picture sent): that picture failed, in the service's words. */
  refused(ids: string[], errors: { field: string; message?: string; detail?: string }[]) {
    for (const e of errors) {
      const i = /^attachmentIds\.(\d+)$/.exec(e.field)?.[1];
      const picture = i === undefined ? undefined : this.list.find((p) => p.id === ids[Number(i)]);
      if (picture) this.patch(picture.key, { state: 'failed', error: e.message ?? e.detail ?? 'The service refused it.' });
    }
  }
}

let nextKey = 1;
const stores = new Map<string, Pictures>();
const storeOf = (conversationId: string) => {
  let store = stores.get(conversationId);
  if (!store) stores.set(conversationId, (store = new Pictures(conversationId)));
  return store;
};

/** The conversation's pictures, kept while the tab is open, and what may be done with them. */
export function usePictures(conversationId: string) {
  const store = storeOf(conversationId);
  const [list, setList] = useState(store.list);
  useEffect(() => {
    setList(store.list);
    return store.subscribe(setList);
  }, [store]);
  return {
    list,
    store,
    /** The ids to send, in order: only when every picture is uploaded. */
    ids: list.every((p) => p.state === 'ready') ? list.map((p) => p.id!) : undefined,
    uploading: list.some((p) => p.state === 'uploading'),
    failed: list.some((p) => p.state === 'failed'),
  };
}

/** PUTs the bytes where the service said, telling the progress; refused in the store's words. */
function put(url: string, method: string, headers: Record<string, string>, file: File, onProgress: (share: number) => void) {
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, sameOrigin(url));
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      if (xhr.status < 300) return resolve();
      let detail: string | undefined;
      try {
        // The refusal's words for the bytes (its field is the body), else its whole detail.
        const problem = JSON.parse(xhr.responseText) as { detail?: string; errors?: { message?: string }[] };
        detail = problem.errors?.[0]?.message ?? problem.detail;
      } catch {}
      reject(new Error(detail ?? `The upload was refused (${xhr.status}).`));
    };
    xhr.onerror = () => reject(new Error('The upload failed: the service cannot be reached.'));
    xhr.send(file);
  });
}

/** Image files among pasted or dropped items. */
export const filesOf = (data: DataTransfer | null): File[] => [...(data?.files ?? [])];

/** The button to choose pictures and the pictures chosen, each with its thumbnail, state and remove button. */
export function ComposerPictures(props: { conversationId: string; notice?: string; onNotice(notice: string | undefined): void }) {
  const { list, store } = usePictures(props.conversationId);
  const chooser = useRef<HTMLInputElement>(null);
  const full = list.length >= MAX_PICTURES;
  return (
    <div class="composer-pictures">
      {list.length > 0 && (
        <ul class="picture-list" aria-label="Pictures to send">
          {list.map((p) => (
            <li key={p.key} class={`picture-item picture-${p.state}`}>
              <img src={p.preview} alt={p.name} />
              <span class="picture-state">
                {p.state === 'uploading' && (
                  <progress max={1} value={p.progress} aria-label={`Uploading ${p.name}`}>
                    {Math.round(p.progress * 100)}%
                  </progress>
                )}
                {p.state === 'ready' && 'Ready'}
                {p.state === 'failed' && <span class="picture-error">Failed: {p.error}</span>}
              </span>
              <button
                type="button"
                class="quiet picture-remove"
                aria-label={`Remove ${p.name}`}
                onClick={() => {
                  store.remove(p.key);
                  chooser.current?.focus();
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="picture-add">
        <label for={`pictures-${props.conversationId}`} class="picture-button">
          Add pictures
        </label>
        <input
          id={`pictures-${props.conversationId}`}
          ref={chooser}
          class="visually-hidden"
          type="file"
          multiple
          accept={ACCEPT}
          aria-describedby={`pictures-note-${props.conversationId}`}
          onClick={(e) => {
            if (!full) return;
            e.preventDefault();
            props.onNotice(`A reply holds at most ${MAX_PICTURES} pictures: remove one first.`);
          }}
          onChange={(e) => {
            props.onNotice(store.add([...(e.currentTarget.files ?? [])]));
            e.currentTarget.value = '';
          }}
        />
        <span class="picture-note" id={`pictures-note-${props.conversationId}`}>
          {full ? `${MAX_PICTURES} of ${MAX_PICTURES} pictures` : `Up to ${MAX_PICTURES}, 10 MB each; paste or drop them here too`}
        </span>
      </div>
      <p class="picture-notice" role="status">
        {props.notice ?? ''}
        {list.some((p) => p.state === 'uploading')
          ? ` Uploading ${list.filter((p) => p.state === 'uploading').length} of ${list.length}…`
          : ''}
      </p>
    </div>
  );
}
