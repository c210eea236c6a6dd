import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import { CreateWorkflowDocument, WorkflowsDocument, type WorkflowPageFragment, type WorkflowRowFragment } from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { navigate, workflowsPath } from '../router';
import { withPage } from '../ui/live-list';
import { useActionCommands } from '../ui/own-commands';
import { pageOf, usePagedList } from '../ui/paged-list';
import { RowLink } from '../ui/row-link';
import { useEscapeCloses, useMoreWhenSeen, useRowKeys } from '../ui/row-keys';
import { when } from '../ui/time';
import { refusedFor, useRole } from './settings-common';
import { fromEdit, STATE_WORDS, toEdit } from './workflows-content';
import { WorkflowPage } from './workflows-page';
import './workflows.css';
import { ListStatus, MoreRow } from '../ui/list-status';

// Workflows: the app-mode's automations, most recently changed first, 30 to a page (the next page
// read as the list is scrolled), each with its name, its state (draft, live or paused), its live
// version and when it last changed. j/k move, Enter opens the workflow beside the list, Esc goes back.
// "New workflow" asks for a name, makes the workflow (an empty draft) and opens it.

const PAGE = 30;

export function Workflows({ place, workflowId }: { place: Place; workflowId?: string | undefined }) {
  const modeId = appModeId(place);
  /** Why the member may not change workflows (agents), once their role is read. */
  const role = useRole(place);
  const refused = role && refusedFor(role, 'manage_settings');
  const [making, setMaking] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  const end = useRef<HTMLLIElement>(null);
  const { rows, setRows, next, loading, error, more, readings } = usePagedList<WorkflowRowFragment>({
    read: async (after, first = PAGE) => pageOf((await request(WorkflowsDocument, { appModeId: modeId, after, first })).workflows),
    merge: withPage,
    by: [modeId],
  });
  const open = (id: string) => navigate(workflowsPath(id));
  useMoreWhenSeen(end, more, next !== null, rows, readings);
  useRowKeys(list, open);

  useEscapeCloses(workflowId, () => navigate(workflowsPath()));

  useActionCommands([{ id: 'workflows-new', label: 'New workflow', run: () => setMaking(true) }]);

  /** A workflow made or changed goes to the top (the list is most recently changed first). */
  const changed = (w: WorkflowRowFragment) => setRows((old) => [w, ...old.filter((r) => r.id !== w.id)]);

  return (
    <main class="inbox messages workflows" id="main">
      <section class="list-pane" aria-labelledby="workflows-title">
        <div class="messages-head">
          <h1 id="workflows-title">Workflows</h1>
          <span class="row-buttons">
            <button type="button" class="small" disabled={!!refused} title={refused} onClick={() => setMaking(true)}>
              New workflow
            </button>
          </span>
        </div>
        {making && (
          <MakeWorkflow modeId={modeId} onCancel={() => setMaking(false)} onMade={(w) => (setMaking(false), changed(w), open(w.id))} />
        )}
        <ListStatus error={error} loading={loading} count={rows.length} empty="No workflows yet.">
          <ul class="conversations message-rows" ref={list} aria-label="Workflows">
            {rows.map((w) => (
              <li key={w.id}>
                <RowLink id={w.id} href={workflowsPath(w.id)} selected={w.id === workflowId} onOpen={open}>
                  <span class="row-top">
                    <strong class="who">{w.name}</strong>
                    <time dateTime={w.updatedAt} title="Last changed">
                      {when(w.updatedAt)}
                    </time>
                  </span>
                  <span class="preview">
                    <span class={`workflow-state state-${w.state}`}>{STATE_WORDS[w.state]}</span>
                    {' · '}
                    {w.liveVersion === null ? 'not published' : `version ${w.liveVersion}`}
                  </span>
                </RowLink>
              </li>
            ))}
            <MoreRow more={next !== null} end={end} />
          </ul>
        </ListStatus>
      </section>
      {workflowId ? (
        <WorkflowPage key={workflowId} id={workflowId} refused={refused} onChanged={changed} />
      ) : (
        <section class="conversation-pane empty" aria-label="Workflow">
          <p>Choose a workflow (j and k move, Enter opens), or make a new one.</p>
        </section>
      )}
    </main>
  );
}

/** A new workflow from its name: an empty draft (a run starts when the person does an event), opened to be written. */
function MakeWorkflow(props: { modeId: string; onCancel(): void; onMade(w: WorkflowPageFragment): void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const input = { name, definition: fromEdit(toEdit({})) };
      props.onMade((await request(CreateWorkflowDocument, { appModeId: props.modeId, input })).createWorkflow);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="make-banner"
      aria-label="New workflow"
      onSubmit={submit}
      onKeyDown={(e) => e.code === 'Escape' && (e.stopPropagation(), props.onCancel())}
    >
      <label>
        Name
        <input ref={first} required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Make the workflow
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
