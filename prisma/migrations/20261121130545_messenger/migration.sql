-- CreateEnum
CREATE TYPE "StartRule" AS ENUM ('always', 'never', 'when_none_open');

-- CreateEnum
CREATE TYPE "ConversationState" AS ENUM ('open', 'closed', 'snoozed');

-- CreateEnum
CREATE TYPE "PartKind" AS ENUM ('message', 'note', 'event', 'rating', 'bot');

-- CreateEnum
CREATE TYPE "PartAuthorKind" AS ENUM ('contact', 'staff', 'bot', 'system');

-- CreateEnum
CREATE TYPE "ConversationReaderKind" AS ENUM ('contact', 'staff');

-- CreateTable
CREATE TABLE "messenger_settings" (
    "app_mode_id" TEXT NOT NULL,
    "start_rule" "StartRule" NOT NULL DEFAULT 'always',
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "messenger_settings_pkey" PRIMARY KEY ("app_mode_id")
);

-- CreateTable
CREATE TABLE "conversation" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "state" "ConversationState" NOT NULL DEFAULT 'open',
    "snoozed_until" TIMESTAMP(3),
    "assignee_id" TEXT,
    "team_id" TEXT,
    "rating_asked" BOOLEAN NOT NULL DEFAULT false,
    "rating" INTEGER,
    "rating_remark" TEXT,
    "rated_at" TIMESTAMP(3),
    "last_seq" INTEGER NOT NULL DEFAULT 0,
    "last_activity_at" TIMESTAMP(3) NOT NULL,
    "visible_seq" INTEGER NOT NULL DEFAULT 0,
    "visible_activity_at" TIMESTAMP(3) NOT NULL,
    "preview" TEXT NOT NULL DEFAULT '',
    "opening" JSONB,
    "button" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "closed_at" TIMESTAMP(3),

    CONSTRAINT "conversation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversation_part" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" "PartKind" NOT NULL,
    "internal" BOOLEAN NOT NULL DEFAULT false,
    "author_kind" "PartAuthorKind" NOT NULL,
    "author_id" TEXT,
    "author_name" TEXT NOT NULL,
    "author_avatar_url" TEXT,
    "text" TEXT NOT NULL DEFAULT '',
    "blocks" JSONB NOT NULL DEFAULT '[]',
    "attachment_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "button" TEXT,
    "event" TEXT,
    "data" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "conversation_part_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversation_read" (
    "conversation_id" TEXT NOT NULL,
    "reader_kind" "ConversationReaderKind" NOT NULL,
    "reader_id" TEXT NOT NULL,
    "last_read_seq" INTEGER NOT NULL,
    "read_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "conversation_read_pkey" PRIMARY KEY ("conversation_id","reader_kind","reader_id")
);

-- CreateTable
CREATE TABLE "collected_value" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "part_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "collected_value_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_key" (
    "app_mode_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "result_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "idempotency_key_pkey" PRIMARY KEY ("app_mode_id","contact_id","scope","key")
);

-- CreateIndex
CREATE INDEX "conversation_app_mode_id_contact_id_visible_activity_at_id_idx" ON "conversation"("app_mode_id", "contact_id", "visible_activity_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "conversation_app_mode_id_state_last_activity_at_id_idx" ON "conversation"("app_mode_id", "state", "last_activity_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "conversation_app_mode_id_assignee_id_state_last_activity_at_idx" ON "conversation"("app_mode_id", "assignee_id", "state", "last_activity_at" DESC);

-- CreateIndex
CREATE INDEX "conversation_app_mode_id_team_id_state_last_activity_at_idx" ON "conversation"("app_mode_id", "team_id", "state", "last_activity_at" DESC);

-- CreateIndex
CREATE INDEX "conversation_snoozed_until_idx" ON "conversation"("snoozed_until");

-- CreateIndex
CREATE INDEX "conversation_part_app_mode_id_created_at_idx" ON "conversation_part"("app_mode_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "conversation_part_conversation_id_seq_key" ON "conversation_part"("conversation_id", "seq");

-- CreateIndex
CREATE INDEX "conversation_read_reader_kind_reader_id_idx" ON "conversation_read"("reader_kind", "reader_id");

-- CreateIndex
CREATE UNIQUE INDEX "collected_value_conversation_id_key_key" ON "collected_value"("conversation_id", "key");

-- CreateIndex
CREATE INDEX "idempotency_key_created_at_idx" ON "idempotency_key"("created_at");

-- AddForeignKey
ALTER TABLE "conversation" ADD CONSTRAINT "conversation_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_part" ADD CONSTRAINT "conversation_part_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_read" ADD CONSTRAINT "conversation_read_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collected_value" ADD CONSTRAINT "collected_value_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_key" ADD CONSTRAINT "idempotency_key_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;
