-- CreateEnum
CREATE TYPE "PersonRunState" AS ENUM ('active', 'waiting', 'parked', 'ended');

-- CreateTable
CREATE TABLE "person_run" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "version_id" TEXT NOT NULL,
    "version_number" INTEGER NOT NULL,
    "contact_id" TEXT NOT NULL,
    "state" "PersonRunState" NOT NULL DEFAULT 'active',
    "at_step" TEXT NOT NULL,
    "since" TIMESTAMP(3) NOT NULL,
    "waits_for" TEXT,
    "until" TIMESTAMP(3),
    "outcome" TEXT,
    "started_at" TIMESTAMP(3) NOT NULL,
    "ended_at" TIMESTAMP(3),
    "trigger_tx" BIGINT NOT NULL DEFAULT 0,
    "trigger_row" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "person_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "person_run_step" (
    "id" BIGSERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "step_key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "visit" INTEGER NOT NULL,
    "entered_at" TIMESTAMP(3) NOT NULL,
    "left_at" TIMESTAMP(3),
    "outcome" TEXT,
    "reason" TEXT,
    "detail" TEXT,

    CONSTRAINT "person_run_step_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_entry" (
    "workflow_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "last_run_id" TEXT NOT NULL,
    "last_started_at" TIMESTAMP(3) NOT NULL,
    "again_after_days" INTEGER,

    CONSTRAINT "workflow_entry_pkey" PRIMARY KEY ("workflow_id","contact_id")
);

-- CreateTable
CREATE TABLE "workflow_listen" (
    "app_mode_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,

    CONSTRAINT "workflow_listen_pkey" PRIMARY KEY ("app_mode_id","event","workflow_id")
);

-- CreateIndex
CREATE INDEX "person_run_contact_id_started_at_idx" ON "person_run"("contact_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "person_run_workflow_id_started_at_idx" ON "person_run"("workflow_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "person_run_step_run_id_id_idx" ON "person_run_step"("run_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "person_run_step_run_id_step_key_visit_key" ON "person_run_step"("run_id", "step_key", "visit");

-- CreateIndex
CREATE INDEX "workflow_entry_contact_id_idx" ON "workflow_entry"("contact_id");

-- CreateIndex
CREATE INDEX "workflow_listen_workflow_id_idx" ON "workflow_listen"("workflow_id");

-- AddForeignKey
ALTER TABLE "person_run" ADD CONSTRAINT "person_run_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "person_run" ADD CONSTRAINT "person_run_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "person_run_step" ADD CONSTRAINT "person_run_step_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "person_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- crm_ingest_events as before, and each kept event a workflow hears written to the outbox
-- (topic workflow.event) in the same statement: a trigger starts a run, a goal or an awaited event
-- wakes the person's runs (workflows/processes/workflow-run).
CREATE OR REPLACE FUNCTION crm_ingest_events(
  p_app_mode_id uuid, p_app_id text, p_source text, p_platform text, p_now timestamptz,
  p_subjects text[], p_hashes text[],
  p_index int[], p_ids text[], p_external_ids text[], p_names text[], p_occurred bigint[], p_props jsonb[],
  p_refused json, p_erased_detail text,
  OUT accepted int, OUT erased text[]
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  found text[] := '{}';
  told int;
BEGIN
  erased := '{}';
  IF cardinality(p_subjects) > 0 THEN
    found := crm_erased(p_app_id, p_subjects, p_hashes, p_now);
    IF cardinality(found) > 0 THEN
      SELECT array_agg(s) INTO erased FROM unnest(p_subjects, p_hashes) AS u(s, h) WHERE h = ANY(found);
    END IF;
  END IF;

  WITH sent AS (
    SELECT e.i, e.id COLLATE "C" AS id, e.x, e.n, to_timestamp(e.o / 1000.0) AS o, e.p
    FROM unnest(p_index, p_ids, p_external_ids, p_names, p_occurred, p_props) AS e(i, id, x, n, o, p)
    WHERE NOT (e.x = ANY(erased))
  ), kept AS (
    SELECT DISTINCT ON (id) * FROM sent ORDER BY id, i DESC
  ), inserted AS (
    INSERT INTO event (app_mode_id, id, external_id, name, occurred_at, received_at, source, platform, props)
    SELECT p_app_mode_id, id, x, n, o, p_now, p_source, p_platform, p FROM kept ORDER BY id
    ON CONFLICT (app_mode_id, id) DO NOTHING
    RETURNING id, external_id, name, occurred_at
  ), counted AS (
    -- In one order everywhere, so concurrent batches lock the same counters without deadlock; in
    -- the slot of this connection, so concurrent batches rarely meet on one counter's row.
    INSERT INTO event_daily_count (app_mode_id, day, name, platform, slot, count)
    SELECT p_app_mode_id, (occurred_at AT TIME ZONE 'UTC')::date AS day, name COLLATE "C", coalesce(p_platform, p_source),
           (pg_backend_pid() % 8)::smallint, count(*)
    FROM inserted GROUP BY 2, 3 ORDER BY 2, 3
    ON CONFLICT (app_mode_id, day, name, platform, slot) DO UPDATE SET count = event_daily_count.count + excluded.count
  ), heard AS (
    -- Events a workflow hears (its trigger, its goal, a wait for it): handed on through the outbox,
    -- found by workflow_listen's key; an app-mode without workflows pays one index probe an event.
    INSERT INTO outbox_event (app_mode_id, topic, external_id, data, created_at)
    SELECT p_app_mode_id::text, 'workflow.event', i.external_id, jsonb_build_object('event_id', i.id, 'name', i.name), p_now AT TIME ZONE 'UTC'
    FROM inserted i
    WHERE EXISTS (SELECT 1 FROM workflow_listen l WHERE l.app_mode_id = p_app_mode_id::text AND l.event = i.name)
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM inserted), (SELECT count(*) FROM heard) INTO accepted, told;

  IF told > 0 THEN
    PERFORM pg_notify('crm_outbox', '');
  END IF;

  IF json_array_length(p_refused) = 0 AND cardinality(erased) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO refused_event (id, app_mode_id, source, event_id, name, external_id, index, reason, detail, received_at)
  SELECT gen_random_uuid()::text, p_app_mode_id::text, p_source,
         CASE WHEN hidden THEN NULL ELSE nullif(id, '') END, CASE WHEN hidden THEN NULL ELSE name END,
         CASE WHEN hidden THEN NULL ELSE external_id END, index, CASE WHEN hidden THEN 'erased' ELSE reason END,
         CASE WHEN hidden THEN p_erased_detail ELSE detail END, p_now AT TIME ZONE 'UTC'
  FROM (
    SELECT r.*, r.reason = 'erased' OR coalesce(r.external_id = ANY(erased), false) AS hidden
    FROM json_to_recordset(p_refused) AS r(index int, id text, external_id text, name text, reason text, detail text)
    UNION ALL
    SELECT e.i, NULL, NULL, NULL, NULL, NULL, true
    FROM unnest(p_index, p_external_ids) AS e(i, x)
    WHERE e.x = ANY(erased)
  ) AS refused;
END $$;

-- A workflow's statistics per step (src/domain/workflows/run-record.ts keeps them, statistics.ts reads them).
CREATE TABLE "workflow_step_count" (
    "workflow_id" TEXT NOT NULL,
    "step_key" TEXT NOT NULL,
    "measure" TEXT NOT NULL,
    "slot" SMALLINT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "workflow_step_count_pkey" PRIMARY KEY ("workflow_id","step_key","measure","slot")
);
