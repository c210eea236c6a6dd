-- CreateIndex
CREATE INDEX "person_run_workflow_id_state_started_at_id_idx" ON "person_run"("workflow_id", "state", "started_at" DESC, "id" DESC);
