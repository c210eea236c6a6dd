-- Email sending: each sending (a version) keeps its audience, state and count of people; each
-- email its claim, tries and times; the app-mode's suppression list.
ALTER TYPE "EmailSendState" ADD VALUE 'sending';
ALTER TYPE "EmailSendState" ADD VALUE 'retry';

CREATE TYPE "EmailSendingState" AS ENUM ('sending', 'done', 'stopped');
CREATE TYPE "EmailSuppressionReason" AS ENUM ('bounce', 'complaint', 'manual');

ALTER TABLE "email_version"
    ADD COLUMN "test" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "audience" JSONB,
    ADD COLUMN "state" "EmailSendingState" NOT NULL DEFAULT 'done',
    ADD COLUMN "people" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "sent_by" TEXT,
    ADD COLUMN "finished_at" TIMESTAMP(3),
    ADD COLUMN "stop_reason" TEXT;
-- Versions kept before sendings had a state were sent (or tests); new ones begin sending.
ALTER TABLE "email_version" ALTER COLUMN "state" SET DEFAULT 'sending';

ALTER TABLE "email_send"
    ADD COLUMN "claim" UUID,
    ADD COLUMN "posted" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "tries" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "retry_at" TIMESTAMP(3),
    ADD COLUMN "sent_at" TIMESTAMP(3),
    ADD COLUMN "bounced_at" TIMESTAMP(3),
    ADD COLUMN "complained_at" TIMESTAMP(3);

CREATE INDEX "email_send_version_id_state_idx" ON "email_send"("version_id", "state");
CREATE INDEX "email_send_app_mode_id_sent_at_idx" ON "email_send"("app_mode_id", "sent_at");

CREATE TABLE "email_suppression" (
    "app_mode_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "reason" "EmailSuppressionReason" NOT NULL,
    "detail" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "email_suppression_pkey" PRIMARY KEY ("app_mode_id","address")
);
