-- POST /guest/v1/events in one statement, so one round trip and no transaction of its own, when
-- this process already knows every definition the batch needs (src/domain/events/guest-events.ts):
-- the person held against an erase and checked (crm_erased, as touchContact does), the contact
-- made on first sight, `last_sdk` written only when it differs (as crm_guest_consent), and, unless
-- the person turned product events off, the batch written by crm_ingest_events (the person already
-- held, so no second check). Its daily-count rows are locked only from their update to this
-- statement's own commit, never through a transaction's further round trips.
--   p_hash: the subject hash of (p_app_id, p_external_id), as the block keeps it.
--   p_sdk: the request's X-CRM-Sdk, or null (then last_sdk is left as it is).
--   p_index..p_props, p_refused, p_erased_detail: as crm_ingest_events, every event the person's.
-- A person erased or being erased: erased is true and nothing is written. events_off: the person
-- turned product events off; nothing of the batch is written (not even its refusals).
CREATE FUNCTION crm_guest_events(
  p_app_id text, p_app_mode_id text, p_external_id text, p_hash text, p_sdk text, p_now timestamptz, p_platform text,
  p_index int[], p_ids text[], p_names text[], p_occurred bigint[], p_props jsonb[],
  p_refused json, p_erased_detail text,
  OUT erased boolean, OUT events_off boolean, OUT accepted int
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  known_sdk text;
BEGIN
  accepted := 0;
  events_off := false;
  erased := cardinality(crm_erased(p_app_id, ARRAY[p_external_id], ARRAY[p_hash], p_now)) > 0;
  IF erased THEN
    RETURN;
  END IF;

  -- Each statement below reads with a fresh snapshot (a VOLATILE function in READ COMMITTED).
  SELECT c.product_events_off, c.last_sdk INTO events_off, known_sdk
  FROM contact c WHERE c.app_mode_id = p_app_mode_id AND c.external_id = p_external_id;

  IF NOT FOUND THEN
    -- First sight. A concurrent first sight that holds the key makes this wait for its end; then
    -- nothing is inserted here and its row is read below.
    INSERT INTO contact (id, app_mode_id, external_id, last_sdk, created_at, updated_at)
    VALUES (gen_random_uuid()::text, p_app_mode_id, p_external_id, p_sdk, p_now AT TIME ZONE 'UTC', p_now AT TIME ZONE 'UTC')
    ON CONFLICT (app_mode_id, external_id) DO NOTHING;
    IF FOUND THEN
      events_off := false;
      known_sdk := p_sdk;
    ELSE
      SELECT c.product_events_off, c.last_sdk INTO STRICT events_off, known_sdk
      FROM contact c WHERE c.app_mode_id = p_app_mode_id AND c.external_id = p_external_id;
    END IF;
  END IF;

  IF p_sdk IS NOT NULL AND known_sdk IS DISTINCT FROM p_sdk THEN
    UPDATE contact c SET last_sdk = p_sdk, updated_at = p_now AT TIME ZONE 'UTC'
    WHERE c.app_mode_id = p_app_mode_id AND c.external_id = p_external_id AND c.last_sdk IS DISTINCT FROM p_sdk;
  END IF;

  IF events_off OR (cardinality(p_ids) = 0 AND json_array_length(p_refused) = 0) THEN
    RETURN;
  END IF;
  SELECT i.accepted INTO accepted
  FROM crm_ingest_events(p_app_mode_id::uuid, p_app_id, 'guest', p_platform, p_now, '{}', '{}',
    p_index, p_ids, array_fill(p_external_id, ARRAY[cardinality(p_ids)]), p_names, p_occurred, p_props,
    p_refused, p_erased_detail) AS i;
END $$;
