import { useEffect, useRef, useState } from 'preact/hooks';
import { Refusal, request, messageOf } from '../api/request';
import {
  AddTicketTypeDocument,
  ArchiveTicketTypeDocument,
  ChangeTicketTypeDocument,
  type TicketStateInput,
  type TicketTypeRowFragment,
} from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { useTicketTypes } from './tickets-make';

// Ticket types (/console/ticket-types): the app-mode's types with their states in order, archived
// ones too (marked); owners and admins add one, change its name, description and states (a state
// tickets are in cannot be taken out: the service says so), archive it or bring it back.

const FIRST_STATES: TicketStateInput[] = [
  { key: 'submitted', label: 'Submitted', final: false },
  { key: 'in_progress', label: 'In progress', final: false },
  { key: 'waiting_on_you', label: 'Waiting on you', final: false },
  { key: 'resolved', label: 'Resolved', final: true },
];

/** A key from a label as the service takes it: lowercase letters, digits and _, starting with a letter. */
const keyOf = (label: string) =>
  label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 40);

type Editing = { type?: TicketTypeRowFragment } | undefined;

export function TicketTypes({ place }: { place: Place }) {
  const modeId = appModeId(place);
  const { types, error, read } = useTicketTypes(modeId, true);
  const [editing, setEditing] = useState<Editing>();
  const [problem, setProblem] = useState<string | undefined>();

  const archive = async (t: TicketTypeRowFragment) => {
    setProblem(undefined);
    try {
      await request(ArchiveTicketTypeDocument, { id: t.id, archived: !t.archived });
      await read();
    } catch (err) {
      setProblem(messageOf(err));
    }
  };

  return (
    <main class="contact-page ticket-types" id="main">
      <h1>Ticket types</h1>
      <p class="quiet-text intro">
        A type names a kind of request (a refund, a bug) and the states its tickets go through, in order; a new ticket starts in the first.
        Owners and admins change them.
      </p>
      {(error || problem) && (
        <p class="error" role="alert">
          {problem ?? error}
        </p>
      )}
      {!editing && (
        <button type="button" onClick={() => setEditing({})}>
          Add a ticket type…
        </button>
      )}
      {editing && (
        <TypeForm
          modeId={modeId}
          type={editing.type}
          onDone={async () => {
            setEditing(undefined);
            await read();
          }}
          onCancel={() => setEditing(undefined)}
        />
      )}
      {!types ? (
        <p class="quiet-text">Loading…</p>
      ) : types.length === 0 ? (
        <p class="quiet-text">No ticket type yet.</p>
      ) : (
        <ul class="type-rows" aria-label="Ticket types">
          {types.map((t) => (
            <li key={t.id} class={t.archived ? 'archived' : ''}>
              <div class="type-head">
                <h2>
                  {t.name}
                  {t.archived && <span class="badge">Archived</span>}
                </h2>
                <div class="actions" role="group" aria-label={`${t.name}: actions`}>
                  <button type="button" class="quiet" onClick={() => setEditing({ type: t })}>
                    Change…
                  </button>
                  <button type="button" class="quiet" onClick={() => void archive(t)}>
                    {t.archived ? 'Bring back' : 'Archive'}
                  </button>
                </div>
              </div>
              {t.description && <p>{t.description}</p>}
              <ol class="type-states" aria-label={`${t.name}: states`}>
                {t.states.map((s) => (
                  <li key={s.key}>
                    {s.label}
                    {s.final ? ' (done)' : ''}
                  </li>
                ))}
              </ol>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

function TypeForm(props: { modeId: string; type?: TicketTypeRowFragment | undefined; onDone(): Promise<void>; onCancel(): void }) {
  const { type } = props;
  const [name, setName] = useState(type?.name ?? '');
  const [description, setDescription] = useState(type?.description ?? '');
  const [states, setStates] = useState<(TicketStateInput & { keyEdited?: boolean })[]>(
    type ? type.states.map((s) => ({ ...s, keyEdited: true })) : FIRST_STATES.map((s) => ({ ...s })),
  );
  const [error, setError] = useState<Refusal | undefined>();
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const change = (i: number, patch: Partial<(typeof states)[number]>) =>
    setStates((old) =>
      old.map((s, j) =>
        j !== i ? s : { ...s, ...patch, ...(patch.label !== undefined && !s.keyEdited ? { key: keyOf(patch.label) } : {}) },
      ),
    );
  const fieldProblem = (field: string) => error?.fields.find((f) => f.field === field)?.detail;
  const title = type ? `Change ${type.name}` : 'A new ticket type';

  return (
    <form
      class="type-form"
      aria-labelledby="type-form-title"
      onSubmit={async (e) => {
        e.preventDefault();
        if (busy) return;
        setBusy(true);
        setError(undefined);
        const input = { name, description, states: states.map(({ key, label, final }) => ({ key, label, final: !!final })) };
        try {
          if (type) await request(ChangeTicketTypeDocument, { id: type.id, ...input });
          else await request(AddTicketTypeDocument, { appModeId: props.modeId, ...input });
          await props.onDone();
        } catch (err) {
          setError(err instanceof Refusal ? err : new Refusal(String(err), 'error'));
          setBusy(false);
        }
      }}
    >
      <h2 id="type-form-title">{title}</h2>
      <label for="type-name">Name</label>
      <input id="type-name" ref={first} required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="type-description">Description</label>
      <input id="type-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      <fieldset>
        <legend>States, in order (a new ticket starts in the first)</legend>
        {states.map((s, i) => (
          <div class="state-row" key={i}>
            <label>
              Label
              <input required value={s.label} onInput={(e) => change(i, { label: e.currentTarget.value })} />
            </label>
            <label>
              Key
              <input
                required
                value={s.key}
                pattern="[a-z][a-z0-9_]*"
                onInput={(e) => change(i, { key: e.currentTarget.value, keyEdited: true })}
              />
            </label>
            <label class="inline">
              <input type="checkbox" checked={!!s.final} onChange={(e) => change(i, { final: e.currentTarget.checked })} />
              Done here
            </label>
            <button
              type="button"
              class="quiet"
              aria-label={`Remove state ${s.label || i + 1}`}
              disabled={states.length <= 1}
              onClick={() => setStates((old) => old.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          </div>
        ))}
        <button type="button" class="quiet" onClick={() => setStates((old) => [...old, { key: '', label: '', final: false }])}>
          Add a state
        </button>
      </fieldset>
      {error && (
        <div class="error" role="alert">
          <p>{error.message}</p>
          {error.fields.length > 0 && (
            <ul>
              {error.fields.map((f) => (
                <li key={f.field}>
                  {f.field}: {f.detail ?? fieldProblem(f.field)}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div class="confirm-actions">
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={busy}>
          {type ? 'Save the type' : 'Add the type'}
        </button>
      </div>
    </form>
  );
}
