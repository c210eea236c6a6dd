-- CreateEnum
CREATE TYPE "ReplyTime" AS ENUM ('minutes', 'hour', 'day', 'stated');

-- AlterTable
ALTER TABLE "conversation" ADD COLUMN     "bot_part_id" TEXT,
ADD COLUMN     "handed_over_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "messenger_settings" ADD COLUMN     "cards" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "faces" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "greeting" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "reply_time" "ReplyTime",
ADD COLUMN     "reply_time_text" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "help_bot" (
    "app_mode_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "help_bot_pkey" PRIMARY KEY ("app_mode_id")
);

-- CreateTable
CREATE TABLE "bot_step" (
    "app_mode_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "blocks" JSONB NOT NULL DEFAULT '[]',
    "buttons" JSONB NOT NULL DEFAULT '[]',
    "question" JSONB,
    "handover" JSONB,

    CONSTRAINT "bot_step_pkey" PRIMARY KEY ("app_mode_id","key")
);

-- CreateTable
CREATE TABLE "bot_opening" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "language" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "position" INTEGER NOT NULL DEFAULT 0,
    "removed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "bot_opening_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bot_opening_version" (
    "opening_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "blocks" JSONB NOT NULL,
    "buttons" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "bot_opening_version_pkey" PRIMARY KEY ("opening_id","version")
);

-- CreateIndex
CREATE INDEX "bot_opening_app_mode_id_active_idx" ON "bot_opening"("app_mode_id", "active");

-- AddForeignKey
ALTER TABLE "bot_opening_version" ADD CONSTRAINT "bot_opening_version_opening_id_fkey" FOREIGN KEY ("opening_id") REFERENCES "bot_opening"("id") ON DELETE CASCADE ON UPDATE CASCADE;
