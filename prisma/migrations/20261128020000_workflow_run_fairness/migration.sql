-- Whose work a run is (its app-mode) and what its activity holds (a webhook endpoint): the embedded
-- engine shares its activity slots by them. Runs started before stay without (no cap applies).
ALTER TABLE "workflow_run" ADD COLUMN "fair_key" TEXT,
ADD COLUMN "lane" TEXT;
