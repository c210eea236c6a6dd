-- A quick claim (between full ones) reads, besides a window of the oldest due runs, the oldest due runs
-- of each tenant holding activities below its cap, by this index: past another tenant's due backlog.
CREATE INDEX "workflow_run_process_fair_key_wake_at_idx" ON "workflow_run"("process", "fair_key", "wake_at");
