-- The embedded engine's claim reads a bounded number of the oldest due runs (by wake time) and
-- counts the runs holding a lease (by its end), so its cost no longer grows with the backlog.
CREATE INDEX "workflow_run_wake_at_idx" ON "workflow_run"("wake_at");

CREATE INDEX "workflow_run_lease_until_idx" ON "workflow_run"("lease_until");
