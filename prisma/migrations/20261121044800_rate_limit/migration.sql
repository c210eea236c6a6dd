-- Sliding-window rate limits shared by every server process on this database.
-- crm_rate_take admits one request against every key at once, or none: it answers 0 when
-- admitted, else the seconds to wait. A request at time t is admitted only when fewer than
-- the key's limit were admitted in (t - window, t]; the per-second buckets that may hold such
-- requests are summed whole, so the count can only err on the safe side.
CREATE OR REPLACE FUNCTION crm_rate_take(p_keys text[], p_limits int[], p_window int, p_now_ms bigint)
RETURNS int
LANGUAGE plpgsql
AS $$
DECLARE
  sec bigint := p_now_ms / 1000;
  oldest bigint := p_now_ms / 1000 - p_window;
  k text;
  i int;
  used bigint;
  excess bigint;
  running bigint;
  b record;
  wait_ms bigint := 0;
BEGIN
  -- A fixed lock order, so two callers sharing keys never deadlock.
  FOR k IN SELECT DISTINCT unnest(p_keys) ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('crm_rate:' || k, 0));
  END LOOP;

  FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
    SELECT coalesce(sum(count), 0) INTO used FROM rate_bucket WHERE key = p_keys[i] AND second >= oldest;
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
    RETURN greatest(1, ceil(wait_ms / 1000.0)::int);
  END IF;

  FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
    INSERT INTO rate_bucket (key, second, count) VALUES (p_keys[i], sec, 1)
      ON CONFLICT (key, second) DO UPDATE SET count = rate_bucket.count + 1;
    DELETE FROM rate_bucket WHERE key = p_keys[i] AND second < oldest;
  END LOOP;
  RETURN 0;
END;
$$;
