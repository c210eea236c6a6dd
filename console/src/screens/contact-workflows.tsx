import { useRef } from 'preact/hooks';
import { request } from '../api/request';
import { PersonWorkflowRunsDocument, type RunRowFragment } from '../generated/graphql';
import { withPage } from '../ui/live-list';
import { pageOf, usePagedList } from '../ui/paged-list';
import { useMoreWhenSeen } from '../ui/row-keys';
import { RunList } from './workflows-run-view';
import { ListStatus } from '../ui/list-status';

// A person's page, "Workflows": their runs of the app-mode's workflows, newest first (10 to a page, the
// next read as the list's end comes into view; personWorkflowRuns by their contact id), each with its
// workflow, where it stands and, opened, why each step went as it did: the workflow page's run list.

const PAGE = 10;

export function ContactWorkflows({ contactId, modeId }: { contactId: string; modeId: string }) {
  const end = useRef<HTMLLIElement>(null);
  const { rows, next, loading, error, more, readings } = usePagedList<RunRowFragment>({
    read: async (after, first = PAGE) =>
      pageOf((await request(PersonWorkflowRunsDocument, { appModeId: modeId, contactId, after, first })).personWorkflowRuns),
    merge: withPage,
    by: [modeId, contactId],
  });
  useMoreWhenSeen(end, more, next !== null, rows, readings);
  return (
    <section aria-labelledby="contact-workflows-title" class="contact-workflows">
      <h2 id="contact-workflows-title">Workflows</h2>
      <ListStatus error={error} loading={loading} count={rows.length} empty="No workflow has taken this person yet.">
        <RunList rows={rows} subject="workflow" label="Their workflow runs" end={end} hasMore={next !== null} />
      </ListStatus>
    </section>
  );
}
