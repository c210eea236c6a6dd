-- CreateEnum
CREATE TYPE "DevicePlatform" AS ENUM ('android', 'ios', 'web');

-- CreateEnum
CREATE TYPE "NoticeSource" AS ENUM ('push', 'staff');

-- CreateEnum
CREATE TYPE "PreferenceChannel" AS ENUM ('email', 'push', 'in_app');

-- CreateEnum
CREATE TYPE "PreferenceSource" AS ENUM ('guest', 'staff', 'email');

-- CreateEnum
CREATE TYPE "PreferenceChangeKind" AS ENUM ('choice', 'all_off');

-- CreateTable
CREATE TABLE "device" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "platform" "DevicePlatform" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token_sealed" TEXT NOT NULL,
    "app_version" TEXT,
    "locale" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "last_seen_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "device_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notice" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT,
    "link" TEXT,
    "topic_key" TEXT,
    "source" "NoticeSource" NOT NULL,
    "send_key" TEXT,
    "posted_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "read_at" TIMESTAMP(3),

    CONSTRAINT "notice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "preference_topic" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "channels" "PreferenceChannel"[],
    "subscribed_by_default" BOOLEAN NOT NULL,
    "offers" BOOLEAN NOT NULL DEFAULT false,
    "archived_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "preference_topic_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "preference_choice" (
    "contact_id" TEXT NOT NULL,
    "topic_id" TEXT NOT NULL,
    "channel" "PreferenceChannel" NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "subscribed" BOOLEAN NOT NULL,
    "changed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "preference_choice_pkey" PRIMARY KEY ("contact_id","topic_id","channel")
);

-- CreateTable
CREATE TABLE "preference_state" (
    "contact_id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "all_off" BOOLEAN NOT NULL,
    "changed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "preference_state_pkey" PRIMARY KEY ("contact_id")
);

-- CreateTable
CREATE TABLE "preference_change" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "kind" "PreferenceChangeKind" NOT NULL,
    "topic_key" TEXT,
    "channel" "PreferenceChannel",
    "value" BOOLEAN NOT NULL,
    "wording" TEXT,
    "source" "PreferenceSource" NOT NULL,
    "changed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "preference_change_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "device_app_mode_id_contact_id_idx" ON "device"("app_mode_id", "contact_id");

-- CreateIndex
CREATE UNIQUE INDEX "device_app_mode_id_token_hash_key" ON "device"("app_mode_id", "token_hash");

-- CreateIndex
CREATE INDEX "notice_contact_id_created_at_id_idx" ON "notice"("contact_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notice_contact_id_read_at_idx" ON "notice"("contact_id", "read_at");

-- CreateIndex
CREATE UNIQUE INDEX "notice_contact_id_send_key_key" ON "notice"("contact_id", "send_key");

-- CreateIndex
CREATE UNIQUE INDEX "preference_topic_app_mode_id_key_key" ON "preference_topic"("app_mode_id", "key");

-- CreateIndex
CREATE INDEX "preference_choice_topic_id_channel_idx" ON "preference_choice"("topic_id", "channel");

-- CreateIndex
CREATE INDEX "preference_change_contact_id_changed_at_id_idx" ON "preference_change"("contact_id", "changed_at", "id");

-- AddForeignKey
ALTER TABLE "device" ADD CONSTRAINT "device_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notice" ADD CONSTRAINT "notice_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "preference_choice" ADD CONSTRAINT "preference_choice_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "preference_choice" ADD CONSTRAINT "preference_choice_topic_id_fkey" FOREIGN KEY ("topic_id") REFERENCES "preference_topic"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "preference_state" ADD CONSTRAINT "preference_state_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "preference_change" ADD CONSTRAINT "preference_change_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;
