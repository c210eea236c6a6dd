-- How far the outbox may be read in a statement's snapshot: below every transaction that snapshot
-- saw running, except those known to run in another database of the cluster (their rows are never
-- here). pg_snapshot_xmin alone is cluster-wide, so a long transaction in another database held
-- every reader back. A transaction of the snapshot that has ended since cannot be placed, and so
-- still counts. STABLE, so it reads the snapshot of the statement that calls it.
CREATE FUNCTION crm_outbox_horizon() RETURNS bigint STABLE LANGUAGE sql AS $$
  SELECT coalesce(min(x::text::bigint), pg_snapshot_xmax(pg_current_snapshot())::text::bigint)
  FROM pg_snapshot_xip(pg_current_snapshot()) AS x
  WHERE NOT EXISTS (
    SELECT 1 FROM pg_stat_activity a
    WHERE a.backend_xid IS NOT NULL AND a.datname IS NOT NULL AND a.datname <> current_database()
      AND a.backend_xid::text::bigint = x::text::bigint % 4294967296)
$$;
