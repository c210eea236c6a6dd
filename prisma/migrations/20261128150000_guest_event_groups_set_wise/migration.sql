-- crm_guest_events_group, set-wise: the same answers and rows as writing each batch by
-- crm_guest_events one after another in the group's order, in a few statements for the whole
-- group rather than a few for each batch:
--   1. every person of the group held against an erase (crm_erased's shared lock), in one order;
--   2. which batches are of an erased person (each by its own clock), the contacts first seen made
--      in one insert, and the SDK of those already there written where it changes;
--   3. the events kept once per id, the daily counts grown once per counter, the refusals recorded.
-- Each statement reads with a fresh snapshot (a VOLATILE function in READ COMMITTED), so step 2
-- reads after the holds, and step 3 sees the contacts step 2 made or another transaction did.
-- As one after another: an erased person's batch writes nothing; a batch of a person who turned
-- product events off keeps nothing and records no refusal; the same event id sent twice is kept
-- once, by the first batch that sent it (in a batch, by its last); a person's last_sdk is the last
-- SDK the group's batches name, updated_at the clock of the batch that last changed it.

-- The group's batches as rows, n from 0 in the order sent (p_batches: see crm_guest_events_group).
CREATE FUNCTION crm_guest_batches(p_batches json)
RETURNS TABLE (
  n int, app_id text, app_mode_id text, external_id text, hash text, sdk text, now timestamptz, platform text,
  idx int[], ids text[], names text[], occurred bigint[], props jsonb[], refused json
)
LANGUAGE sql STABLE AS $$
  SELECT (b.o - 1)::int, b.app_id, b.app_mode_id, b.external_id, b.hash, b.sdk, b.now, b.platform,
         b.idx, b.ids, b.names, b.occurred, b.props, b.refused
  FROM ROWS FROM (json_to_recordset(p_batches) AS (
    app_id text, app_mode_id text, external_id text, hash text, sdk text, now timestamptz, platform text,
    idx int[], ids text[], names text[], occurred bigint[], props jsonb[], refused json
  )) WITH ORDINALITY AS b(app_id, app_mode_id, external_id, hash, sdk, now, platform, idx, ids, names, occurred, props, refused, o)
$$;

-- The SDK of people whose contact another transaction made while the group's insert waited
-- (p_who: mode || ' ' || external id), read now: each person's last SDK named, written when a batch's
-- SDK differs from the one before it (the contact's for the first), updated_at the clock of the
-- last such batch (as crm_guest_person, one batch after another).
CREATE FUNCTION crm_guest_group_sdk(p_batches json, p_erased int[], p_who text[])
RETURNS void
LANGUAGE sql VOLATILE AS $$
  WITH steps AS (
    SELECT b.app_mode_id, b.external_id, b.n, b.now, b.sdk,
           b.sdk IS DISTINCT FROM CASE WHEN row_number() OVER w = 1 THEN c.last_sdk ELSE lag(b.sdk) OVER w END AS changes,
           c.last_sdk AS was
    FROM crm_guest_batches(p_batches) b
    JOIN contact c ON c.app_mode_id = b.app_mode_id AND c.external_id = b.external_id
    WHERE b.sdk IS NOT NULL AND NOT (b.n = ANY(p_erased)) AND b.app_mode_id || ' ' || b.external_id = ANY(p_who)
    WINDOW w AS (PARTITION BY b.app_mode_id, b.external_id ORDER BY b.n)
  ), sdks AS (
    SELECT s.app_mode_id, s.external_id, (array_agg(s.sdk ORDER BY s.n DESC))[1] AS sdk,
           (array_agg(s.now ORDER BY s.n DESC) FILTER (WHERE s.changes))[1] AS changed_at, min(s.was) AS was
    FROM steps s GROUP BY 1, 2
  )
  UPDATE contact c SET last_sdk = d.sdk, updated_at = d.changed_at AT TIME ZONE 'UTC'
  FROM (SELECT * FROM sdks WHERE changed_at IS NOT NULL ORDER BY 1, 2) AS d
  WHERE c.app_mode_id = d.app_mode_id AND c.external_id = d.external_id
    AND (c.last_sdk IS DISTINCT FROM d.sdk OR d.sdk IS NOT DISTINCT FROM d.was)
$$;

-- As before (see 20261128130000_guest_person_and_event_groups), set-wise. Its statements keep one
-- plan each: the group's arrays are parameters whose sizes would otherwise have them planned
-- afresh at every call (more than half its time).
CREATE OR REPLACE FUNCTION crm_guest_events_group(p_batches json, p_erased_detail text)
RETURNS TABLE (n int, erased boolean, events_off boolean, accepted int)
LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  -- The batches, read once: by batch (n from 0), and their events (each with its batch's n).
  b_app text[]; b_mode text[]; b_who text[]; b_hash text[]; b_sdk text[]; b_now timestamptz[]; b_platform text[]; b_refused json[];
  e_n int[]; e_i int[]; e_id text[]; e_name text[]; e_at bigint[]; e_props jsonb[];
  v_erased int[];
  v_missing text[];
  v_made text[];
BEGIN
  -- 1. The batches read, and every person held against an erase, in one order (the keys crm_erased takes).
  WITH b AS (
    SELECT * FROM crm_guest_batches(p_batches)
  ), held AS (
    SELECT count(pg_advisory_xact_lock_shared(s.k)) AS c
    FROM (SELECT DISTINCT hashtextextended('erase:' || b.app_id || ':' || b.external_id, 0) AS k FROM b ORDER BY 1) AS s
  )
  SELECT bb.*, ee.*
  INTO b_app, b_mode, b_who, b_hash, b_sdk, b_now, b_platform, b_refused, e_n, e_i, e_id, e_name, e_at, e_props
  FROM (
    SELECT array_agg(b.app_id ORDER BY b.n), array_agg(b.app_mode_id ORDER BY b.n), array_agg(b.external_id ORDER BY b.n),
           array_agg(b.hash ORDER BY b.n), array_agg(b.sdk ORDER BY b.n), array_agg(b.now ORDER BY b.n),
           array_agg(b.platform ORDER BY b.n), array_agg(b.refused ORDER BY b.n)
    FROM b
  ) AS bb, (
    SELECT coalesce(array_agg(b.n), '{}'), coalesce(array_agg(e.i), '{}'), coalesce(array_agg(e.id), '{}'),
           coalesce(array_agg(e.nm), '{}'), coalesce(array_agg(e.o), '{}'), coalesce(array_agg(e.p), '{}')
    FROM b, unnest(b.idx, b.ids, b.names, b.occurred, b.props) AS e(i, id, nm, o, p)
  ) AS ee, held;

  -- 2. The erased batches, each by its own clock; the people not yet contacts made, with the last
  -- SDK the group names (a concurrent first sight holding the key makes the insert wait for its
  -- end; then nothing is inserted here for them); the SDK of those already there.
  WITH b AS (
    SELECT (u.o - 1)::int AS n, u.app_id, u.app_mode_id, u.external_id, u.hash, u.sdk, u.now
    FROM unnest(b_app, b_mode, b_who, b_hash, b_sdk, b_now) WITH ORDINALITY AS u(app_id, app_mode_id, external_id, hash, sdk, now, o)
  ), gone AS (
    SELECT b.n FROM b
    WHERE EXISTS (SELECT 1 FROM erase_request e WHERE e.app_id = b.app_id AND e.subject_hash = b.hash AND e.blocked_until > b.now)
  ), live AS (
    SELECT b.* FROM b WHERE b.n NOT IN (SELECT gone.n FROM gone)
  ), people AS (
    SELECT DISTINCT ON (l.app_mode_id, l.external_id) l.app_mode_id, l.external_id, l.n AS first_n, l.now AS first_now,
           c.id IS NOT NULL AS known, c.last_sdk AS was
    FROM live l LEFT JOIN contact c ON c.app_mode_id = l.app_mode_id AND c.external_id = l.external_id
    ORDER BY l.app_mode_id, l.external_id, l.n
  ), steps AS (
    -- Each batch naming an SDK, and whether it changes the contact's (the one before it, or the
    -- contact's as read for the first; a new contact's is none).
    SELECT l.app_mode_id, l.external_id, l.n, l.now, l.sdk,
           l.sdk IS DISTINCT FROM CASE WHEN row_number() OVER w = 1 THEN p.was ELSE lag(l.sdk) OVER w END AS changes
    FROM live l JOIN people p ON p.app_mode_id = l.app_mode_id AND p.external_id = l.external_id
    WHERE l.sdk IS NOT NULL
    WINDOW w AS (PARTITION BY l.app_mode_id, l.external_id ORDER BY l.n)
  ), sdks AS (
    SELECT s.app_mode_id, s.external_id, (array_agg(s.sdk ORDER BY s.n DESC))[1] AS sdk,
           (array_agg(s.now ORDER BY s.n DESC) FILTER (WHERE s.changes))[1] AS changed_at,
           max(s.n) FILTER (WHERE s.changes) AS changed_n
    FROM steps s GROUP BY 1, 2
  ), made AS (
    INSERT INTO contact (id, app_mode_id, external_id, last_sdk, created_at, updated_at)
    SELECT gen_random_uuid()::text, p.app_mode_id, p.external_id, d.sdk, p.first_now AT TIME ZONE 'UTC',
           (CASE WHEN d.changed_n > p.first_n THEN d.changed_at ELSE p.first_now END) AT TIME ZONE 'UTC'
    FROM people p LEFT JOIN sdks d ON d.app_mode_id = p.app_mode_id AND d.external_id = p.external_id
    WHERE NOT p.known
    ORDER BY p.app_mode_id, p.external_id
    ON CONFLICT (app_mode_id, external_id) DO NOTHING
    RETURNING contact.app_mode_id || ' ' || contact.external_id AS who
  ), sdk_written AS (
    -- As one batch after another: written unless it is already the last SDK named (by a
    -- concurrent request), or when the group changed it and changed it back.
    UPDATE contact c SET last_sdk = d.sdk, updated_at = d.changed_at AT TIME ZONE 'UTC'
    FROM (
      SELECT d.*, p.was FROM sdks d JOIN people p ON p.app_mode_id = d.app_mode_id AND p.external_id = d.external_id
      WHERE p.known AND d.changed_at IS NOT NULL ORDER BY d.app_mode_id, d.external_id
    ) AS d
    WHERE c.app_mode_id = d.app_mode_id AND c.external_id = d.external_id
      AND (c.last_sdk IS DISTINCT FROM d.sdk OR d.sdk IS NOT DISTINCT FROM d.was)
  )
  SELECT (SELECT coalesce(array_agg(gone.n), '{}') FROM gone),
         (SELECT coalesce(array_agg(p.app_mode_id || ' ' || p.external_id), '{}') FROM people p WHERE NOT p.known),
         (SELECT coalesce(array_agg(made.who), '{}') FROM made)
  INTO v_erased, v_missing, v_made;

  -- Made by another transaction meanwhile: their SDK as for a contact already there, read now.
  IF cardinality(v_missing) > cardinality(v_made) THEN
    PERFORM crm_guest_group_sdk(p_batches, v_erased, ARRAY(SELECT unnest(v_missing) EXCEPT SELECT unnest(v_made)));
  END IF;

  -- 3. Unless erased or their product events are off: the events kept once per id (the first
  -- batch's, in a batch its last), each counter grown once, the refusals recorded; each batch
  -- answered with how many of its events were new.
  RETURN QUERY
  WITH live AS (
    SELECT (u.o - 1)::int AS n, u.app_mode_id, u.now, u.platform, u.refused, c.product_events_off AS off
    FROM unnest(b_mode, b_who, b_now, b_platform, b_refused) WITH ORDINALITY AS u(app_mode_id, external_id, now, platform, refused, o)
    JOIN contact c ON c.app_mode_id = u.app_mode_id AND c.external_id = u.external_id
    WHERE NOT ((u.o - 1)::int = ANY(v_erased))
  ), sent AS (
    SELECT e.n, l.app_mode_id::uuid AS mode, e.i, e.id COLLATE "C" AS id, b_who[e.n + 1] AS x, e.nm,
           to_timestamp(e.o / 1000.0) AS o, e.p, l.now, l.platform
    FROM unnest(e_n, e_i, e_id, e_name, e_at, e_props) AS e(n, i, id, nm, o, p)
    JOIN live l ON l.n = e.n
    WHERE NOT l.off
  ), kept AS (
    SELECT DISTINCT ON (s.mode, s.id) * FROM sent s ORDER BY s.mode, s.id, s.n, s.i DESC
  ), ins AS (
    INSERT INTO event (app_mode_id, id, external_id, name, occurred_at, received_at, source, platform, props)
    SELECT k.mode, k.id, k.x, k.nm, k.o, k.now, 'guest', k.platform, k.p FROM kept k ORDER BY k.mode, k.id
    ON CONFLICT (app_mode_id, id) DO NOTHING
    RETURNING event.app_mode_id, event.id, event.name, event.occurred_at, event.platform
  ), counted AS (
    -- In one order everywhere, in the slot of this connection (as crm_ingest_events).
    INSERT INTO event_daily_count (app_mode_id, day, name, platform, slot, count)
    SELECT i.app_mode_id, (i.occurred_at AT TIME ZONE 'UTC')::date, i.name COLLATE "C", coalesce(i.platform, 'guest'),
           (pg_backend_pid() % 8)::smallint, count(*)
    FROM ins i GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (app_mode_id, day, name, platform, slot) DO UPDATE SET count = event_daily_count.count + excluded.count
  ), refusals AS (
    INSERT INTO refused_event (id, app_mode_id, source, event_id, name, external_id, index, reason, detail, received_at)
    SELECT gen_random_uuid()::text, l.app_mode_id, 'guest',
           CASE WHEN r.reason = 'erased' THEN NULL ELSE nullif(r.id, '') END, CASE WHEN r.reason = 'erased' THEN NULL ELSE r.name END,
           CASE WHEN r.reason = 'erased' THEN NULL ELSE r.external_id END, r.index, r.reason,
           CASE WHEN r.reason = 'erased' THEN p_erased_detail ELSE r.detail END, l.now AT TIME ZONE 'UTC'
    FROM live l, json_to_recordset(l.refused) AS r(index int, id text, external_id text, name text, reason text, detail text)
    WHERE NOT l.off AND json_array_length(l.refused) > 0
  ), per AS (
    SELECT k.n, count(*)::int AS c FROM ins i JOIN kept k ON k.mode = i.app_mode_id AND k.id = i.id GROUP BY k.n
  )
  SELECT g.n::int, g.n::int = ANY(v_erased), coalesce(l.off, false), coalesce(per.c, 0)
  FROM generate_series(0, cardinality(b_mode) - 1) AS g(n)
  LEFT JOIN live l ON l.n = g.n LEFT JOIN per ON per.n = g.n
  ORDER BY g.n;
END $$;
