-- GET /guest/v1/consent in one statement, so one round trip and no transaction of its own:
-- the person held against an erase and checked (crm_erased, as touchContact does), the contact
-- made on first sight, `last_sdk` written only when it differs, and the consent read.
--   p_hash: the subject hash of (p_app_id, p_external_id), as the block keeps it.
--   p_sdk: the request's X-CRM-Sdk, or null (then last_sdk is left as it is).
-- A person erased or being erased: erased is true, nothing is written, the consent columns are null.
-- When nothing changed, nothing is written: a person's reads do not queue on their row's lock
-- through a commit's disk flush. Times are answered as timestamptz (the columns hold UTC).
CREATE FUNCTION crm_guest_consent(
  p_app_id text, p_app_mode_id text, p_external_id text, p_hash text, p_sdk text, p_now timestamptz,
  OUT erased boolean, OUT created boolean,
  OUT offers_by_email boolean, OUT offers_by_email_changed_at timestamptz,
  OUT offers_by_push boolean, OUT offers_by_push_changed_at timestamptz
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  known_sdk text;
BEGIN
  created := false;
  erased := cardinality(crm_erased(p_app_id, ARRAY[p_external_id], ARRAY[p_hash], p_now)) > 0;
  IF erased THEN
    RETURN;
  END IF;

  -- Each statement below reads with a fresh snapshot (a VOLATILE function in READ COMMITTED).
  SELECT c.offers_by_email, c.offers_by_email_changed_at AT TIME ZONE 'UTC', c.offers_by_push, c.offers_by_push_changed_at AT TIME ZONE 'UTC', c.last_sdk
  INTO offers_by_email, offers_by_email_changed_at, offers_by_push, offers_by_push_changed_at, known_sdk
  FROM contact c WHERE c.app_mode_id = p_app_mode_id AND c.external_id = p_external_id;

  IF NOT FOUND THEN
    -- First sight. A concurrent first sight that holds the key makes this wait for its end; then
    -- nothing is inserted here and its row is read below.
    INSERT INTO contact (id, app_mode_id, external_id, last_sdk, created_at, updated_at)
    VALUES (gen_random_uuid()::text, p_app_mode_id, p_external_id, p_sdk, p_now AT TIME ZONE 'UTC', p_now AT TIME ZONE 'UTC')
    ON CONFLICT (app_mode_id, external_id) DO NOTHING;
    IF FOUND THEN
      created := true;
      RETURN;
    END IF;
    SELECT c.offers_by_email, c.offers_by_email_changed_at AT TIME ZONE 'UTC', c.offers_by_push, c.offers_by_push_changed_at AT TIME ZONE 'UTC', c.last_sdk
    INTO STRICT offers_by_email, offers_by_email_changed_at, offers_by_push, offers_by_push_changed_at, known_sdk
    FROM contact c WHERE c.app_mode_id = p_app_mode_id AND c.external_id = p_external_id;
  END IF;

  IF p_sdk IS NOT NULL AND known_sdk IS DISTINCT FROM p_sdk THEN
    UPDATE contact c SET last_sdk = p_sdk, updated_at = p_now AT TIME ZONE 'UTC'
    WHERE c.app_mode_id = p_app_mode_id AND c.external_id = p_external_id AND c.last_sdk IS DISTINCT FROM p_sdk;
  END IF;
END $$;
