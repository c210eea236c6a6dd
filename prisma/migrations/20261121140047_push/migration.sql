-- CreateEnum
CREATE TYPE "PushProvider" AS ENUM ('apns', 'fcm', 'web');

-- CreateEnum
CREATE TYPE "PushSendState" AS ENUM ('sending', 'done', 'stopped');

-- CreateEnum
CREATE TYPE "PushDeliveryState" AS ENUM ('sending', 'sent', 'skipped', 'gone', 'failed', 'retry');

-- CreateTable
CREATE TABLE "push_credential" (
    "app_mode_id" TEXT NOT NULL,
    "provider" "PushProvider" NOT NULL,
    "sealed" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "public_key" TEXT,
    "set_at" TIMESTAMP(3) NOT NULL,
    "set_by" TEXT,

    CONSTRAINT "push_credential_pkey" PRIMARY KEY ("app_mode_id","provider")
);

-- CreateTable
CREATE TABLE "push_send" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT,
    "link" TEXT,
    "topic_key" TEXT,
    "audience" JSONB NOT NULL,
    "state" "PushSendState" NOT NULL,
    "devices" INTEGER NOT NULL,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "gone" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "people" INTEGER NOT NULL DEFAULT 0,
    "stop_reason" TEXT,
    "sent_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "push_send_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_delivery" (
    "send_id" TEXT NOT NULL,
    "device_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "state" "PushDeliveryState" NOT NULL,
    "tries" INTEGER NOT NULL DEFAULT 0,
    "retry_at" TIMESTAMP(3),
    "detail" TEXT,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "push_delivery_pkey" PRIMARY KEY ("send_id","device_id")
);

-- CreateTable
CREATE TABLE "push_recipient" (
    "send_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "push_recipient_pkey" PRIMARY KEY ("send_id","contact_id")
);

-- CreateIndex
CREATE INDEX "push_send_app_mode_id_created_at_id_idx" ON "push_send"("app_mode_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "push_delivery_send_id_state_retry_at_idx" ON "push_delivery"("send_id", "state", "retry_at");

-- CreateIndex
CREATE INDEX "push_delivery_contact_id_idx" ON "push_delivery"("contact_id");

-- CreateIndex
CREATE INDEX "push_recipient_contact_id_idx" ON "push_recipient"("contact_id");

-- AddForeignKey
ALTER TABLE "push_delivery" ADD CONSTRAINT "push_delivery_send_id_fkey" FOREIGN KEY ("send_id") REFERENCES "push_send"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_recipient" ADD CONSTRAINT "push_recipient_send_id_fkey" FOREIGN KEY ("send_id") REFERENCES "push_send"("id") ON DELETE CASCADE ON UPDATE CASCADE;
