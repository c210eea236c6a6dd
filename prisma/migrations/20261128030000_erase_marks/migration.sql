-- A person being erased is marked on their contacts (both modes) when the erase is asked, so every
-- read and write that resolves them answers as for someone gone, while the erase runs.
ALTER TABLE "contact" ADD COLUMN "erase_requested_at" TIMESTAMP(3);

-- When a run was asked for the request (its outbox row written). Requests of earlier releases that
-- are not done have none: the sweep asks a run for each (the first release wrote no outbox row).
ALTER TABLE "erase_request" ADD COLUMN "run_asked_at" TIMESTAMP(3);
UPDATE "erase_request" SET "run_asked_at" = "requested_at" WHERE "state" = 'done';
CREATE INDEX "erase_request_run_asked_at_idx" ON "erase_request"("run_asked_at");

-- The people of open requests are marked now, before any server of this release answers.
UPDATE "contact" AS c SET "erase_requested_at" = r."requested_at"
FROM "erase_request" AS r JOIN "app_mode" AS m ON m."app_id" = r."app_id"
WHERE r."state" <> 'done' AND r."external_id" IS NOT NULL AND c."app_mode_id" = m."id" AND c."external_id" = r."external_id";
