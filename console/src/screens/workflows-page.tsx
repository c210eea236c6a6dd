import { useEffect, useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import { SetWorkflowLiveDocument, WorkflowDocument, type WorkflowPageFragment } from '../generated/graphql';
import { fullTime } from '../ui/time';
import { Reason } from './settings-common';
import { STATE_WORDS } from './workflows-content';
import { WorkflowEditor } from './workflows-editor';
import { WorkflowRuns } from './workflows-runs';
import { WorkflowVersions } from './workflows-versions';

// A workflow's page: its name and state, Pause or Resume once published (setWorkflowLive: a paused
// workflow takes no one new; runs under way go on), the step editor (its draft, saved and
// published), its versions, and the place of its runs. Each part is a component of its own.

export function WorkflowPage(props: {
  id: string;
  /** Why the member may not change workflows (their role), or undefined. */
  refused: string | undefined;
  onChanged(w: WorkflowPageFragment): void;
}) {
  const [w, setW] = useState<WorkflowPageFragment | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    request(WorkflowDocument, { id: props.id })
      .then(({ workflow }) => (setW(workflow), setError(undefined)))
      .catch((err) => setError(messageOf(err)));
  }, [props.id]);
  const changed = (next: WorkflowPageFragment) => (setW(next), props.onChanged(next));

  if (!w)
    return (
      <section class="conversation-pane message-page workflow-page" aria-label="Workflow">
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : (
          <p class="quiet-text">Loading…</p>
        )}
      </section>
    );

  return (
    <section class="conversation-pane message-page workflow-page" aria-labelledby="workflow-title">
      <header class="message-head">
        <h2 id="workflow-title">{w.name}</h2>
        <p>
          <span class={`workflow-state state-${w.state}`} data-state={w.state}>
            {STATE_WORDS[w.state]}
          </span>
          {' · '}
          {w.liveVersion === null ? 'not published yet' : `new runs start on version ${w.liveVersion}`} · changed {fullTime(w.updatedAt)}
        </p>
        <LiveSwitch w={w} refused={props.refused} onChanged={changed} />
      </header>
      <WorkflowEditor key={w.id} w={w} refused={props.refused} onSaved={changed} />
      <WorkflowVersions id={w.id} liveVersion={w.liveVersion} refused={props.refused} />
      <WorkflowRuns workflowId={w.id} />
    </section>
  );
}

/** Pause (no one new enters; runs under way go on) or Resume, once the workflow is published. */
function LiveSwitch(props: { w: WorkflowPageFragment; refused: string | undefined; onChanged(w: WorkflowPageFragment): void }) {
  const { w } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [said, setSaid] = useState('');
  if (w.liveVersion === null) return <p class="quiet-text">Publish it to take people: until then no run starts.</p>;
  const live = w.state === 'live';
  const flip = async () => {
    setBusy(true);
    try {
      const next = (await request(SetWorkflowLiveDocument, { id: w.id, live: !live })).setWorkflowLive;
      props.onChanged(next);
      setError(undefined);
      setSaid(next.state === 'live' ? 'Resumed: it takes people again.' : 'Paused: no one new enters; runs under way go on.');
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="actions">
      <button type="button" id="workflow-live" disabled={busy || !!props.refused} onClick={flip}>
        {live ? 'Pause' : 'Resume'}
      </button>
      <span class="quiet-text">{live ? 'Pausing lets no one new in; runs under way go on.' : 'Paused: no one new enters.'}</span>
      <span role="status" class="visually-hidden">
        {said}
      </span>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <Reason why={props.refused} />
    </div>
  );
}
