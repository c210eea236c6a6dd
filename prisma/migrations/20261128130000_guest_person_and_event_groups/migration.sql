-- crm_guest_person: what crm_guest_consent and crm_guest_events both did first, written once: the
-- person held against an erase and checked (crm_erased), then, unless erased, their contact made on
-- first sight and `last_sdk` written only when it differs.
--   p_sdk: the request's X-CRM-Sdk, or null (then last_sdk is left as it is).
-- erased: the person is being erased or was (then nothing is read or written, person is null).
-- created: the contact was made by this call (person is then the new row). A concurrent first
-- sight that holds the key makes the insert wait for its end; then nothing is inserted here and
-- its row is read. Each statement reads with a fresh snapshot (a VOLATILE function in READ COMMITTED).
CREATE FUNCTION crm_guest_person(
  p_app_id text, p_app_mode_id text, p_external_id text, p_hash text, p_sdk text, p_now timestamptz,
  OUT erased boolean, OUT created boolean, OUT person contact
)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  created := false;
  erased := cardinality(crm_erased(p_app_id, ARRAY[p_external_id], ARRAY[p_hash], p_now)) > 0;
  IF erased THEN
    RETURN;
  END IF;
  SELECT c.* INTO person FROM contact c WHERE c.app_mode_id = p_app_mode_id AND c.external_id = p_external_id;
  IF NOT FOUND THEN
    INSERT INTO contact (id, app_mode_id, external_id, last_sdk, created_at, updated_at)
    VALUES (gen_random_uuid()::text, p_app_mode_id, p_external_id, p_sdk, p_now AT TIME ZONE 'UTC', p_now AT TIME ZONE 'UTC')
    ON CONFLICT (app_mode_id, external_id) DO NOTHING
    RETURNING * INTO person;
    IF FOUND THEN
      created := true;
      RETURN;
    END IF;
    SELECT c.* INTO STRICT person FROM contact c WHERE c.app_mode_id = p_app_mode_id AND c.external_id = p_external_id;
  END IF;

  IF p_sdk IS NOT NULL AND person.last_sdk IS DISTINCT FROM p_sdk THEN
    UPDATE contact c SET last_sdk = p_sdk, updated_at = p_now AT TIME ZONE 'UTC'
    WHERE c.app_mode_id = p_app_mode_id AND c.external_id = p_external_id AND c.last_sdk IS DISTINCT FROM p_sdk;
  END IF;
END $$;

-- As before, the person by crm_guest_person; a contact made by this call answers its consent columns null.
CREATE OR REPLACE FUNCTION crm_guest_consent(
  p_app_id text, p_app_mode_id text, p_external_id text, p_hash text, p_sdk text, p_now timestamptz,
  OUT erased boolean, OUT created boolean,
  OUT offers_by_email boolean, OUT offers_by_email_changed_at timestamptz,
  OUT offers_by_push boolean, OUT offers_by_push_changed_at timestamptz
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  g record;
BEGIN
  SELECT * INTO g FROM crm_guest_person(p_app_id, p_app_mode_id, p_external_id, p_hash, p_sdk, p_now);
  erased := g.erased;
  created := g.created;
  IF erased OR created THEN
    RETURN;
  END IF;
  offers_by_email := (g.person).offers_by_email;
  offers_by_email_changed_at := (g.person).offers_by_email_changed_at AT TIME ZONE 'UTC';
  offers_by_push := (g.person).offers_by_push;
  offers_by_push_changed_at := (g.person).offers_by_push_changed_at AT TIME ZONE 'UTC';
END $$;

-- As before, the person by crm_guest_person; unless erased or they turned product events off, the
-- batch written by crm_ingest_events.
CREATE OR REPLACE FUNCTION crm_guest_events(
  p_app_id text, p_app_mode_id text, p_external_id text, p_hash text, p_sdk text, p_now timestamptz, p_platform text,
  p_index int[], p_ids text[], p_names text[], p_occurred bigint[], p_props jsonb[],
  p_refused json, p_erased_detail text,
  OUT erased boolean, OUT events_off boolean, OUT accepted int
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  g record;
BEGIN
  accepted := 0;
  events_off := false;
  SELECT * INTO g FROM crm_guest_person(p_app_id, p_app_mode_id, p_external_id, p_hash, p_sdk, p_now);
  erased := g.erased;
  IF erased THEN
    RETURN;
  END IF;
  events_off := (g.person).product_events_off;

  IF events_off OR (cardinality(p_ids) = 0 AND json_array_length(p_refused) = 0) THEN
    RETURN;
  END IF;
  SELECT i.accepted INTO accepted
  FROM crm_ingest_events(p_app_mode_id::uuid, p_app_id, 'guest', p_platform, p_now, '{}', '{}',
    p_index, p_ids, array_fill(p_external_id, ARRAY[cardinality(p_ids)]), p_names, p_occurred, p_props,
    p_refused, p_erased_detail) AS i;
END $$;

DROP FUNCTION crm_guest_contact(text, text, text, timestamptz);

-- Group commit of guest event batches: several requests' batches, each written by crm_guest_events
-- one after another in this one statement, so in one transaction and one commit (one flush to disk
-- for all of them). Each answers as it would alone, in the order sent (n from 0); a later batch sees
-- what an earlier one wrote (the same id is kept once, by the first).
--   p_batches: [{ app_id, app_mode_id, external_id, hash, sdk, now, platform, idx, ids, names,
--     occurred, props, refused }], the arguments of crm_guest_events.
CREATE FUNCTION crm_guest_events_group(p_batches json, p_erased_detail text)
RETURNS TABLE (n int, erased boolean, events_off boolean, accepted int)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  b record;
  r record;
BEGIN
  n := 0;
  FOR b IN
    SELECT * FROM json_to_recordset(p_batches) AS x(
      app_id text, app_mode_id text, external_id text, hash text, sdk text, now timestamptz, platform text,
      idx int[], ids text[], names text[], occurred bigint[], props jsonb[], refused json)
  LOOP
    SELECT * INTO r FROM crm_guest_events(b.app_id, b.app_mode_id, b.external_id, b.hash, b.sdk, b.now, b.platform,
      b.idx, b.ids, b.names, b.occurred, b.props, b.refused, p_erased_detail);
    erased := r.erased;
    events_off := r.events_off;
    accepted := r.accepted;
    RETURN NEXT;
    n := n + 1;
  END LOOP;
END $$;
