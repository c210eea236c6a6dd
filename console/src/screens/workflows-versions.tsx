import { useEffect, useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import {
  MoveWorkflowRunsDocument,
  WorkflowVersionsDocument,
  type MoveWorkflowRunsMutation,
  type WorkflowVersionRowFragment,
} from '../generated/graphql';
import { Confirm } from '../ui/confirm';
import { fullTime } from '../ui/time';
import { Reason } from './settings-common';

// A workflow's published versions, newest first (20 at a time, older ones on asking): each frozen
// as published; new runs start on the live one. Read again when a publish makes a new one. Once
// there is more than one, "Move waiting runs to version N" asks (after a confirmation) the runs
// waiting on older versions to move to the live one, and says how many were asked and which stay.

const PAGE = 20;

export function WorkflowVersions(props: {
  id: string;
  liveVersion: number | null;
  /** Why the member may not change workflows (their role), or undefined. */
  refused?: string | undefined;
}) {
  const [rows, setRows] = useState<WorkflowVersionRowFragment[] | undefined>();
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const read = async (after: string | null) => {
    try {
      const { versions } = (await request(WorkflowVersionsDocument, { id: props.id, first: PAGE, after })).workflow;
      const page = versions.edges.map((e) => e.node);
      setRows((old) => (after ? [...(old ?? []), ...page] : page));
      setNext(versions.pageInfo.hasNextPage ? (versions.pageInfo.endCursor ?? null) : null);
      setError(undefined);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => void read(null), [props.id, props.liveVersion]);

  return (
    <section class="workflow-versions" aria-labelledby="workflow-versions-title">
      <h3 id="workflow-versions-title">Versions</h3>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {rows === undefined ? (
        <p class="quiet-text">Loading…</p>
      ) : rows.length === 0 ? (
        <p class="quiet-text">None yet: publishing the draft makes version 1.</p>
      ) : (
        <ol class="workflow-version-list" aria-label="Versions">
          {rows.map((v) => (
            <li key={v.id}>
              <strong>Version {v.number}</strong>
              {v.number === props.liveVersion && <span class="workflow-state state-live">new runs start on it</span>}
              <span class="quiet-text">
                published <time dateTime={v.publishedAt}>{fullTime(v.publishedAt)}</time>
              </span>
            </li>
          ))}
        </ol>
      )}
      {next && (
        <button type="button" class="quiet small" onClick={() => void read(next)}>
          Show older versions
        </button>
      )}
      {props.liveVersion !== null && props.liveVersion > 1 && (
        <MoveRuns id={props.id} liveVersion={props.liveVersion} refused={props.refused} />
      )}
    </section>
  );
}

type Moved = MoveWorkflowRunsMutation['moveWorkflowRuns'];

const runs = (n: number) => (n === 1 ? '1 run' : `${n} runs`);

/** Moves the runs waiting on older versions to the live one (moveWorkflowRuns), once confirmed; says what it asked. */
function MoveRuns(props: { id: string; liveVersion: number; refused: string | undefined }) {
  const [asking, setAsking] = useState(false);
  const [moved, setMoved] = useState<Moved | undefined>();
  useEffect(() => setMoved(undefined), [props.id, props.liveVersion]);
  const n = props.liveVersion;
  return (
    <div class="workflow-move">
      <div class="actions">
        <button type="button" id="workflow-move-runs" disabled={!!props.refused} onClick={() => setAsking(true)}>
          Move waiting runs to version {n}
        </button>
        <span class="quiet-text">Runs under way keep their version unless moved.</span>
      </div>
      <Reason why={props.refused} />
      {asking && (
        <Confirm
          title={`Move waiting runs to version ${n}?`}
          action={`Move to version ${n}`}
          onCancel={() => setAsking(false)}
          onConfirm={async () => {
            setMoved((await request(MoveWorkflowRunsDocument, { workflowId: props.id })).moveWorkflowRuns);
            setAsking(false);
          }}
        >
          <p>
            Runs waiting or parked on an older version move to version {n} where the step they wait at is in version {n} as the same kind of
            step: they keep their timer, then go on by version {n}’s steps. Runs at a step version {n} lacks stay on their version. A move
            cannot be undone.
          </p>
        </Confirm>
      )}
      <div role="status">{moved && <MoveResult moved={moved} />}</div>
    </div>
  );
}

function MoveResult({ moved }: { moved: Moved }) {
  const n = moved.versionNumber;
  return (
    <div class="workflow-move-result">
      <p>
        {moved.moving === 0
          ? `No run waits on an older version at a step version ${n} has: nothing to move.`
          : `${runs(moved.moving)} asked to move to version ${n}; each moves within moments (its version shows in Runs).`}
        {moved.notYet > 0 && ` ${runs(moved.notYet)} more can move: press again once these have.`}
      </p>
      {moved.staying > 0 && (
        <>
          <p>
            {moved.staying === 1
              ? `1 run stays on its version: the step it waits at is not in version ${n}.`
              : `${moved.staying} runs stay on their version: the step they wait at is not in version ${n}.`}
          </p>
          <ul aria-label="Runs that stay">
            {moved.stayingAt.map((s) => (
              <li key={`${s.versionNumber} ${s.step}`}>
                {runs(s.runs)} on version {s.versionNumber} at <code>{s.step}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
