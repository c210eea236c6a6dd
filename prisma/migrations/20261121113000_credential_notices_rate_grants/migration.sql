-- 1. Credential notices. Every server process keeps app-modes, server keys and opened identity
-- secrets in memory (src/domain/access/credential-cache.ts) and drops them when they change. The
-- triggers below say so at commit, whatever wrote the change (GraphQL, the CLI, a process, psql):
-- pg_notify('crm_credentials', <app id>) for a change to an app, one of its modes or one of its
-- server keys. NOTIFY folds repeats within one transaction into one.
CREATE OR REPLACE FUNCTION crm_credentials_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  app text;
  row_data jsonb;
BEGIN
  IF TG_OP = 'DELETE' THEN
    row_data := to_jsonb(OLD);
  ELSE
    row_data := to_jsonb(NEW);
  END IF;
  IF TG_TABLE_NAME = 'app' THEN
    app := row_data ->> 'id';
  ELSIF TG_TABLE_NAME = 'app_mode' THEN
    app := row_data ->> 'app_id';
  ELSE
    -- server_key: its mode's app. When the mode itself is being deleted (a cascade), the mode's own
    -- trigger has said so already.
    SELECT m.app_id INTO app FROM app_mode m WHERE m.id = row_data ->> 'app_mode_id';
    IF app IS NULL THEN
      RETURN NULL;
    END IF;
  END IF;
  PERFORM pg_notify('crm_credentials', app);
  -- A mode or key moved to another app (never done; then the app it left hears of it too).
  IF TG_OP = 'UPDATE' THEN
    IF TG_TABLE_NAME = 'app_mode' THEN
      PERFORM pg_notify('crm_credentials', to_jsonb(OLD) ->> 'app_id');
    ELSIF TG_TABLE_NAME = 'server_key' THEN
      PERFORM pg_notify('crm_credentials', m.app_id) FROM app_mode m WHERE m.id = to_jsonb(OLD) ->> 'app_mode_id';
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER crm_credentials_app AFTER UPDATE OR DELETE ON app
  FOR EACH ROW EXECUTE FUNCTION crm_credentials_changed();
CREATE TRIGGER crm_credentials_app_mode AFTER INSERT OR UPDATE OR DELETE ON app_mode
  FOR EACH ROW EXECUTE FUNCTION crm_credentials_changed();
CREATE TRIGGER crm_credentials_server_key AFTER INSERT OR UPDATE OR DELETE ON server_key
  FOR EACH ROW EXECUTE FUNCTION crm_credentials_changed();

-- 2. Rate limits in chunks. crm_rate_grant admits one request against every key at once, or none,
-- like crm_rate_take, and may hand out more than one slot of a key (p_wants) for the calling
-- process to spend in memory: it answers an array, [0] the seconds to wait (0: admitted), then
-- the slots granted per key (at least 1 each when admitted, at most what the window has left).
-- p_returns/p_return_secs give back slots this process was granted at that second and never
-- spent, before anything is counted. Windows are counted as before (per-second buckets summed
-- whole, so the count errs only on the safe side), but:
-- - no DELETE per call: buckets past the window are ignored, and swept once a minute;
-- - the commit does not wait for its WAL flush (set_config(..., true): for this transaction
--   only; callers call it alone): the per-key lock is held for microseconds, not a disk flush.
--   A PostgreSQL crash may forget the last fraction of a second of counts.
CREATE OR REPLACE FUNCTION crm_rate_grant(p_keys text[], p_limits int[], p_wants int[], p_returns int[], p_return_secs bigint[], p_window int, p_now_ms bigint)
RETURNS int[]
LANGUAGE plpgsql
AS $$
DECLARE
  sec bigint := p_now_ms / 1000;
  oldest bigint := p_now_ms / 1000 - p_window;
  n int := coalesce(array_length(p_keys, 1), 0);
  k text;
  i int;
  used bigint;
  excess bigint;
  running bigint;
  b record;
  wait_ms bigint := 0;
  avail bigint[] := '{}';
  granted int[] := '{}';
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  -- A fixed lock order, so two callers sharing keys never deadlock.
  FOR k IN SELECT DISTINCT unnest(p_keys) ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('crm_rate:' || k, 0));
  END LOOP;

  FOR i IN 1 .. n LOOP
    IF coalesce(p_returns[i], 0) > 0 AND p_return_secs[i] >= oldest THEN
      UPDATE rate_bucket SET count = greatest(count - p_returns[i], 0) WHERE key = p_keys[i] AND second = p_return_secs[i];
    END IF;
  END LOOP;

  FOR i IN 1 .. n LOOP
    SELECT coalesce(sum(count), 0) INTO used FROM rate_bucket WHERE key = p_keys[i] AND second >= oldest;
    avail := avail || (p_limits[i] - used);
    IF used >= p_limits[i] THEN
      excess := used - p_limits[i] + 1;
      running := 0;
      FOR b IN SELECT second, count FROM rate_bucket WHERE key = p_keys[i] AND second >= oldest ORDER BY second LOOP
        running := running + b.count;
        IF running >= excess THEN
          wait_ms := greatest(wait_ms, (b.second + p_window + 1) * 1000 - p_now_ms);
          EXIT;
        END IF;
      END LOOP;
    END IF;
  END LOOP;

  IF wait_ms > 0 THEN
    RETURN ARRAY[greatest(1, ceil(wait_ms / 1000.0)::int)];
  END IF;

  FOR i IN 1 .. n LOOP
    granted := granted || least(greatest(coalesce(p_wants[i], 1), 1), avail[i])::int;
    INSERT INTO rate_bucket (key, second, count) VALUES (p_keys[i], sec, granted[i])
      ON CONFLICT (key, second) DO UPDATE SET count = rate_bucket.count + EXCLUDED.count;
  END LOOP;
  RETURN 0 || granted;
END;
$$;
