import { useEffect, useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import { WorkflowVersionsDocument, type WorkflowVersionRowFragment } from '../generated/graphql';
import { fullTime } from '../ui/time';

// A workflow's published versions, newest first (20 at a time, older ones on asking): each frozen
// as published; new runs start on the live one. Read again when a publish makes a new one.

const PAGE = 20;

export function WorkflowVersions(props: { id: string; liveVersion: number | null }) {
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
    </section>
  );
}
