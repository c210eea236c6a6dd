import { useRef, useState } from 'preact/hooks';
import { request } from '../api/request';
import { WorkflowRunsDocument, type RunRowFragment } from '../generated/graphql';
import { withPage } from '../ui/live-list';
import { pageOf, usePagedList } from '../ui/paged-list';
import { useMoreWhenSeen } from '../ui/row-keys';
import { RUN_STATE_WORDS, RUN_STATES, RunList, type RunState } from './workflows-run-view';

// A workflow's runs, newest first (20 to a page, the next read as the list's end comes into view),
// of one state or all: each with its person, where it stands and, opened, why each step went as it
// did (workflowRuns). "Read again" reads them on asking: runs move on their own.

const PAGE = 20;

export function WorkflowRuns(props: { workflowId: string }) {
  const [state, setState] = useState<RunState | ''>('');
  const end = useRef<HTMLLIElement>(null);
  const { rows, next, loading, error, more, reload, readings } = usePagedList<RunRowFragment>({
    read: async (after, first = PAGE) =>
      pageOf((await request(WorkflowRunsDocument, { workflowId: props.workflowId, state: state || null, after, first })).workflowRuns),
    merge: withPage,
    by: [props.workflowId, state],
    clear: true,
  });
  useMoreWhenSeen(end, more, next !== null, rows, readings);
  return (
    <section class="workflow-runs" aria-labelledby="workflow-runs-title">
      <div class="workflow-runs-head">
        <h3 id="workflow-runs-title">Runs</h3>
        <label>
          Show{' '}
          <select value={state} onChange={(e) => setState(e.currentTarget.value as RunState | '')}>
            <option value="">Every run</option>
            {RUN_STATES.map((s) => (
              <option key={s} value={s}>
                {RUN_STATE_WORDS[s]}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="quiet small" onClick={() => void reload()}>
          Read again
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {loading && rows.length === 0 ? (
        <p class="quiet-text">Loading…</p>
      ) : rows.length === 0 ? (
        <p class="quiet-text">
          {state ? `No ${RUN_STATE_WORDS[state].toLowerCase()} runs.` : 'No runs yet: a run starts when a person does the trigger.'}
        </p>
      ) : (
        <RunList rows={rows} subject="person" label="Runs" end={end} hasMore={next !== null} />
      )}
    </section>
  );
}
