-- A day's count of an event is kept in up to 8 rows (slots), each batch adding to the slot of its
-- database connection, and read as their sum (src/domain/events/daily-counts.ts): the hottest
-- counter (one app, one built-in event, today) was one row that every guest event updated and held
-- locked until its commit was on disk, so a tenant's events queued one commit flush apart.
ALTER TABLE "event_daily_count" ADD COLUMN "slot" SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE "event_daily_count" DROP CONSTRAINT "event_daily_count_pkey";
ALTER TABLE "event_daily_count" ADD CONSTRAINT "event_daily_count_pkey" PRIMARY KEY ("app_mode_id", "day", "name", "platform", "slot");

-- crm_ingest_events as before, its counts added in the connection's slot.
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
    RETURNING name, occurred_at
  ), counted AS (
    -- In one order everywhere, so concurrent batches lock the same counters without deadlock; in
    -- the slot of this connection, so concurrent batches rarely meet on one counter's row.
    INSERT INTO event_daily_count (app_mode_id, day, name, platform, slot, count)
    SELECT p_app_mode_id, (occurred_at AT TIME ZONE 'UTC')::date AS day, name COLLATE "C", coalesce(p_platform, p_source),
           (pg_backend_pid() % 8)::smallint, count(*)
    FROM inserted GROUP BY 2, 3 ORDER BY 2, 3
    ON CONFLICT (app_mode_id, day, name, platform, slot) DO UPDATE SET count = event_daily_count.count + excluded.count
  )
  SELECT count(*) INTO accepted FROM inserted;

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
