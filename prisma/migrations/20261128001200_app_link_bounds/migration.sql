-- A link set keeps its distinct declared paths beside its links, so a message's product links are
-- checked against the paths alone, and the order of reports (report_seq, taken afresh at each
-- report), so the digests reported last are told apart however close in time. An app-mode keeps the
-- 20 digests reported last, each naming the 20 app versions reported last: what is kept already is
-- brought within those bounds.
ALTER TABLE "app_link_set" ADD COLUMN "paths" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN "report_seq" BIGSERIAL NOT NULL;

UPDATE "app_link_set" SET "paths" = ARRAY(SELECT DISTINCT l->>'path' FROM jsonb_array_elements("links") AS l WHERE l->>'path' IS NOT NULL);

UPDATE "app_link_set" s SET "report_seq" = r.n
FROM (SELECT app_mode_id, digest, row_number() OVER (ORDER BY last_reported_at, digest) AS n FROM "app_link_set") r
WHERE s.app_mode_id = r.app_mode_id AND s.digest = r.digest;

SELECT setval(pg_get_serial_sequence('app_link_set', 'report_seq'), coalesce((SELECT max("report_seq") FROM "app_link_set"), 0) + 1, false);

DELETE FROM "app_link_set" s USING (
  SELECT app_mode_id, digest, row_number() OVER (PARTITION BY app_mode_id ORDER BY report_seq DESC) AS n
  FROM "app_link_set"
) r
WHERE s.app_mode_id = r.app_mode_id AND s.digest = r.digest AND r.n > 20;

UPDATE "app_link_set" SET "app_versions" = "app_versions"[cardinality("app_versions") - 19:]
WHERE cardinality("app_versions") > 20;
