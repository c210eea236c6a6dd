-- The runs holding a lease, one row each, for the embedded engine's claim to count by key and lane.
-- Counted by an index on workflow_run.lease_until, every claim visited the rows of every lease taken
-- within a lease's length: each lease left an entry there with its end still to come, long after its
-- activity ended, and those entries sit on the index's busiest pages, where they are never marked dead.
-- This table holds only the leases held: a claim reads it whole.
DROP INDEX "workflow_run_lease_until_idx";

-- CreateTable
CREATE TABLE "workflow_lease" (
    "run_id" TEXT NOT NULL,
    "process" TEXT NOT NULL,
    "fair_key" TEXT,
    "lane" TEXT,
    "until" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "workflow_lease_pkey" PRIMARY KEY ("run_id")
);

-- AddForeignKey
ALTER TABLE "workflow_lease" ADD CONSTRAINT "workflow_lease_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "workflow_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Kept by every change of a run's lease, whichever statement makes it: taken or extended (the
-- heartbeat), or given back (its result saved, a lost worker's run retried, a cancel taken).
CREATE FUNCTION crm_workflow_lease_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.lease_until IS NULL THEN
    DELETE FROM workflow_lease WHERE run_id = NEW.id;
  ELSE
    INSERT INTO workflow_lease (run_id, process, fair_key, lane, until)
    VALUES (NEW.id, NEW.process, NEW.fair_key, NEW.lane, NEW.lease_until)
    ON CONFLICT (run_id) DO UPDATE SET until = excluded.until;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER workflow_run_lease_kept AFTER UPDATE OF lease_until ON workflow_run
  FOR EACH ROW WHEN (NEW.lease_until IS DISTINCT FROM OLD.lease_until) EXECUTE FUNCTION crm_workflow_lease_kept();
-- A run made with a lease (none the engine starts; a copy of runs, restored) holds it too.
CREATE TRIGGER workflow_run_lease_made AFTER INSERT ON workflow_run
  FOR EACH ROW WHEN (NEW.lease_until IS NOT NULL) EXECUTE FUNCTION crm_workflow_lease_kept();
