-- CreateEnum
CREATE TYPE "AttributeType" AS ENUM ('string', 'number', 'boolean', 'date', 'time', 'list');

-- AlterTable
ALTER TABLE "contact" ADD COLUMN     "attributes" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "display_name" TEXT,
ADD COLUMN     "email" TEXT,
ADD COLUMN     "language" TEXT,
ADD COLUMN     "product_events_off" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "provider" TEXT,
ADD COLUMN     "signed_up_at" TIMESTAMP(3),
ADD COLUMN     "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "time_zone" TEXT;

-- CreateTable
CREATE TABLE "attribute_definition" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" "AttributeType" NOT NULL,
    "needs_review" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attribute_definition_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_definition" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "category" TEXT,
    "source" TEXT NOT NULL DEFAULT 'server',
    "props" JSONB NOT NULL DEFAULT '[]',
    "declared" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_definition_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event" (
    "app_mode_id" UUID NOT NULL,
    "id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL,
    "platform" TEXT,
    "props" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "event_pkey" PRIMARY KEY ("app_mode_id","id")
);

-- CreateTable
CREATE TABLE "event_daily_count" (
    "app_mode_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "name" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "event_daily_count_pkey" PRIMARY KEY ("app_mode_id","day","name","platform")
);

-- CreateTable
CREATE TABLE "refused_event" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "event_id" TEXT,
    "name" TEXT,
    "external_id" TEXT,
    "index" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "refused_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "erase_request" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "requested_at" TIMESTAMP(3) NOT NULL,
    "blocked_until" TIMESTAMP(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "finished_at" TIMESTAMP(3),
    "removed" JSONB,

    CONSTRAINT "erase_request_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_event" (
    "id" BIGSERIAL NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "external_id" TEXT,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "taken_at" TIMESTAMP(3),

    CONSTRAINT "outbox_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "attribute_definition_app_mode_id_needs_review_idx" ON "attribute_definition"("app_mode_id", "needs_review");

-- CreateIndex
CREATE UNIQUE INDEX "attribute_definition_app_mode_id_name_key" ON "attribute_definition"("app_mode_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "event_definition_app_mode_id_name_key" ON "event_definition"("app_mode_id", "name");

-- CreateIndex
CREATE INDEX "event_app_mode_id_external_id_occurred_at_idx" ON "event"("app_mode_id", "external_id", "occurred_at" DESC);

-- CreateIndex
CREATE INDEX "event_app_mode_id_name_occurred_at_idx" ON "event"("app_mode_id", "name", "occurred_at");

-- CreateIndex
CREATE INDEX "refused_event_app_mode_id_received_at_idx" ON "refused_event"("app_mode_id", "received_at" DESC);

-- CreateIndex
CREATE INDEX "refused_event_app_mode_id_external_id_idx" ON "refused_event"("app_mode_id", "external_id");

-- CreateIndex
CREATE INDEX "erase_request_app_id_external_id_blocked_until_idx" ON "erase_request"("app_id", "external_id", "blocked_until");

-- CreateIndex
CREATE INDEX "outbox_event_taken_at_id_idx" ON "outbox_event"("taken_at", "id");

-- CreateIndex
CREATE INDEX "outbox_event_app_mode_id_external_id_idx" ON "outbox_event"("app_mode_id", "external_id");