import { useState } from 'preact/hooks';
import type { GuestClient } from '../../../sdk/src/index.js';
import { words } from '../words.js';

/** The guest API's picture types and how many a message may carry. */
const TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
export const MAX_PICTURES = 4;

/** A picture chosen for the next message: uploading, ready (its attachment id) or refused. */
export interface Chosen {
  key: string;
  name: string;
  preview: string;
  id?: string;
  failed?: string;
}

/** The pictures of the message being written, each uploaded as soon as it is chosen (the upload flow). */
export function usePictures(client: GuestClient) {
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const update = (key: string, change: Partial<Chosen>) => setChosen((all) => all.map((c) => (c.key === key ? { ...c, ...change } : c)));
  const add = (files: File[]) => {
    const room = MAX_PICTURES - chosen.length;
    for (const file of files.slice(0, Math.max(0, room))) {
      const key = crypto.randomUUID();
      const picture: Chosen = { key, name: file.name, preview: URL.createObjectURL(file) };
      if (!TYPES.includes(file.type)) picture.failed = words().pictureTypes;
      setChosen((all) => [...all, picture]);
      if (picture.failed) continue;
      client.uploadPicture(file).then(
        (id) => update(key, { id }),
        (error: Error) => update(key, { failed: error.message }),
      );
    }
  };
  const remove = (key: string) =>
    setChosen((all) => {
      const gone = all.find((c) => c.key === key);
      if (gone) URL.revokeObjectURL(gone.preview);
      return all.filter((c) => c.key !== key);
    });
  const clear = () => setChosen((all) => (all.forEach((c) => URL.revokeObjectURL(c.preview)), []));
  const uploading = chosen.some((c) => !c.id && !c.failed);
  const ids = chosen.flatMap((c) => (c.id ? [c.id] : []));
  return { chosen, add, remove, clear, uploading, ids };
}

/** The chosen pictures, each with its state and a way to take it out. */
export function ChosenPictures({ pictures }: { pictures: ReturnType<typeof usePictures> }) {
  if (!pictures.chosen.length) return null;
  return (
    <ul class="chosen" aria-label={words().picturesToSend}>
      {pictures.chosen.map((c) => (
        <li key={c.key} class={c.failed ? 'failed' : c.id ? 'ready' : 'uploading'}>
          <img src={c.preview} alt={c.name} />
          <span class="visually-hidden">{c.failed ? words().notSentBecause(c.failed) : c.id ? words().ready : words().uploading}</span>
          {c.failed && <span class="why">{c.failed}</span>}
          <button type="button" aria-label={words().remove(c.name)} onClick={() => pictures.remove(c.key)}>
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}

/** "Add a picture": the file chooser, up to four a message. */
export function AddPicture({ pictures }: { pictures: ReturnType<typeof usePictures> }) {
  const full = pictures.chosen.length >= MAX_PICTURES;
  return (
    <label class={`add-picture${full ? ' full' : ''}`} title={full ? words().upToFourPictures : words().addPicture}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path
          fill="currentColor"
          d="M19 3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2zm0 16H5V5h14zM8.5 13.5l2.5 3 3.5-4.5 4.5 6H5z"
        />
      </svg>
      <span class="visually-hidden">{words().addPicture}</span>
      <input
        type="file"
        accept={TYPES.join(',')}
        multiple
        disabled={full}
        onChange={(e) => {
          const input = e.target as HTMLInputElement;
          pictures.add([...(input.files ?? [])]);
          input.value = '';
        }}
      />
    </label>
  );
}
