-- CreateEnum
CREATE TYPE "InAppKind" AS ENUM ('banner', 'post', 'carousel');

-- CreateEnum
CREATE TYPE "InAppState" AS ENUM ('draft', 'live', 'paused', 'ended');

-- CreateEnum
CREATE TYPE "InAppShow" AS ENUM ('once', 'until_dismissed', 'until_completed');

-- CreateTable
CREATE TABLE "inapp_message" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "InAppKind" NOT NULL,
    "state" "InAppState" NOT NULL DEFAULT 'draft',
    "priority" INTEGER NOT NULL DEFAULT 0,
    "variants" JSONB NOT NULL,
    "control_weight" INTEGER NOT NULL DEFAULT 0,
    "audience" JSONB,
    "screens" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "topic_key" TEXT,
    "show" "InAppShow" NOT NULL DEFAULT 'once',
    "start_at" TIMESTAMPTZ(3),
    "stop_at" TIMESTAMPTZ(3),
    "sending_window" JSONB,
    "quiet_hours" JSONB,
    "goal" JSONB,
    "goal_event" TEXT,
    "goal_days" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "live_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "inapp_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inapp_receipt" (
    "message_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "variant" TEXT NOT NULL,
    "control" BOOLEAN NOT NULL DEFAULT false,
    "assigned_at" TIMESTAMPTZ(3) NOT NULL,
    "sent_at" TIMESTAMPTZ(3),
    "last_sent_at" TIMESTAMPTZ(3),
    "last_session" TEXT,
    "sent_count" INTEGER NOT NULL DEFAULT 0,
    "seen_at" TIMESTAMPTZ(3),
    "clicked_at" TIMESTAMPTZ(3),
    "dismissed_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "answered_at" TIMESTAMPTZ(3),
    "goal_reached_at" TIMESTAMPTZ(3),
    "clicks" JSONB NOT NULL DEFAULT '[]',
    "answers" JSONB NOT NULL DEFAULT '{}',
    "path" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "inapp_receipt_pkey" PRIMARY KEY ("message_id","contact_id")
);

-- CreateTable
CREATE TABLE "inapp_test_phone" (
    "contact_id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "inapp_test_phone_pkey" PRIMARY KEY ("contact_id")
);

-- CreateTable
CREATE TABLE "inapp_test_send" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "message_id" TEXT,
    "kind" "InAppKind" NOT NULL,
    "variant" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "screens" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "sent_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "delivered_at" TIMESTAMPTZ(3),
    "seen_at" TIMESTAMPTZ(3),
    "clicked_at" TIMESTAMPTZ(3),
    "dismissed_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "answered_at" TIMESTAMPTZ(3),
    "clicks" JSONB NOT NULL DEFAULT '[]',
    "answers" JSONB NOT NULL DEFAULT '{}',
    "path" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "inapp_test_send_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inapp_checkin" (
    "contact_id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "last_at" TIMESTAMPTZ(3) NOT NULL,
    "answer" JSONB,
    "answer_hash" TEXT,

    CONSTRAINT "inapp_checkin_pkey" PRIMARY KEY ("contact_id")
);

-- CreateTable
CREATE TABLE "app_link_set" (
    "app_mode_id" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "links" JSONB NOT NULL,
    "app_versions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "first_reported_at" TIMESTAMPTZ(3) NOT NULL,
    "last_reported_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "app_link_set_pkey" PRIMARY KEY ("app_mode_id","digest")
);

-- CreateTable
CREATE TABLE "inapp_settings" (
    "app_mode_id" TEXT NOT NULL,
    "daily_cap" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "inapp_settings_pkey" PRIMARY KEY ("app_mode_id")
);

-- CreateIndex
CREATE INDEX "inapp_message_app_mode_id_state_created_at_idx" ON "inapp_message"("app_mode_id", "state", "created_at");

-- CreateIndex
CREATE INDEX "inapp_receipt_contact_id_idx" ON "inapp_receipt"("contact_id");

-- CreateIndex
CREATE INDEX "inapp_test_phone_app_mode_id_created_at_idx" ON "inapp_test_phone"("app_mode_id", "created_at");

-- CreateIndex
CREATE INDEX "inapp_test_send_contact_id_created_at_idx" ON "inapp_test_send"("contact_id", "created_at");

-- AddForeignKey
ALTER TABLE "inapp_receipt" ADD CONSTRAINT "inapp_receipt_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "inapp_message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- pg_notify('crm_inapp', <app-mode id>) at commit for any change to a message or to an app-mode's
-- in-app settings, whatever made it: every server process drops that app-mode's compiled live
-- messages (src/domain/inapp/live.ts). Notices of one transaction with the same payload fold into one.
CREATE FUNCTION crm_inapp_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('crm_inapp', coalesce(to_jsonb(NEW) ->> 'app_mode_id', to_jsonb(OLD) ->> 'app_mode_id'));
  RETURN NULL;
END $$;
CREATE TRIGGER crm_inapp_message AFTER INSERT OR UPDATE OR DELETE ON inapp_message
  FOR EACH ROW EXECUTE FUNCTION crm_inapp_changed();
CREATE TRIGGER crm_inapp_settings AFTER INSERT OR UPDATE OR DELETE ON inapp_settings
  FOR EACH ROW EXECUTE FUNCTION crm_inapp_changed();

-- The first part of POST /guest/v1/checkin, in one statement with the person's facts around it
-- (src/domain/inapp/facts.ts): the person held against an erase and checked (crm_erased, as
-- touchContact does), the contact made on first sight, `last_sdk` written only when it differs,
-- and the check-in's slot claimed: a check-in sooner than p_spacing after the last claimed one is
-- throttled and answered from that one's answer (nothing else is read). The slot is only timing:
-- it is written without waiting for its disk flush.
--   p_hash: the subject hash of (p_app_id, p_external_id), as the erase block keeps it.
CREATE FUNCTION crm_inapp_checkin(
  p_app_id text, p_app_mode_id text, p_external_id text, p_hash text, p_sdk text, p_now timestamptz, p_spacing interval,
  OUT is_erased boolean, OUT person_id text, OUT is_throttled boolean,
  OUT last_checkin_at timestamptz, OUT last_answer jsonb, OUT last_hash text
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  known_sdk text;
BEGIN
  is_throttled := false;
  is_erased := cardinality(crm_erased(p_app_id, ARRAY[p_external_id], ARRAY[p_hash], p_now)) > 0;
  IF is_erased THEN
    RETURN;
  END IF;
  PERFORM set_config('synchronous_commit', 'off', true);

  SELECT c.id, c.last_sdk INTO person_id, known_sdk
  FROM contact c WHERE c.app_mode_id = p_app_mode_id AND c.external_id = p_external_id;
  IF NOT FOUND THEN
    INSERT INTO contact (id, app_mode_id, external_id, last_sdk, created_at, updated_at)
    VALUES (gen_random_uuid()::text, p_app_mode_id, p_external_id, p_sdk, p_now AT TIME ZONE 'UTC', p_now AT TIME ZONE 'UTC')
    ON CONFLICT (app_mode_id, external_id) DO NOTHING
    RETURNING id INTO person_id;
    IF person_id IS NULL THEN
      -- A concurrent first sight made it (the insert waited for its commit).
      SELECT c.id, c.last_sdk INTO STRICT person_id, known_sdk
      FROM contact c WHERE c.app_mode_id = p_app_mode_id AND c.external_id = p_external_id;
    ELSE
      known_sdk := p_sdk;
    END IF;
  END IF;
  IF p_sdk IS NOT NULL AND known_sdk IS DISTINCT FROM p_sdk THEN
    UPDATE contact c SET last_sdk = p_sdk, updated_at = p_now AT TIME ZONE 'UTC'
    WHERE c.id = person_id AND c.last_sdk IS DISTINCT FROM p_sdk;
  END IF;

  INSERT INTO inapp_checkin AS k (contact_id, app_mode_id, last_at) VALUES (person_id, p_app_mode_id, p_now)
  ON CONFLICT (contact_id) DO UPDATE SET last_at = EXCLUDED.last_at WHERE k.last_at <= p_now - p_spacing
  RETURNING k.answer_hash INTO last_hash;
  IF NOT FOUND THEN
    is_throttled := true;
    SELECT k.last_at, k.answer, k.answer_hash INTO last_checkin_at, last_answer, last_hash
    FROM inapp_checkin k WHERE k.contact_id = person_id;
  END IF;
END $$;
