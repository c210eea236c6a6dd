// The place of a workflow's runs and its statistics per step, kept apart from the editor: the run
// views come here once runs are built.

export function WorkflowRuns(_props: { workflowId: string }) {
  return (
    <section class="workflow-runs" aria-labelledby="workflow-runs-title">
      <h3 id="workflow-runs-title">Runs</h3>
      <p class="quiet-text">Runs and statistics appear here once runs are built.</p>
    </section>
  );
}
