-- AlterTable
ALTER TABLE "app_mode" ADD COLUMN     "previous_inbound_secret_enc" TEXT,
ADD COLUMN     "previous_inbound_until" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "email_send" ADD COLUMN     "delivered_at" TIMESTAMP(3),
ADD COLUMN     "soft_bounces" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "email_event" (
    "app_mode_id" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "send_id" UUID,
    "address" TEXT NOT NULL,
    "hard" BOOLEAN NOT NULL DEFAULT false,
    "detail" TEXT,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "email_event_pkey" PRIMARY KEY ("app_mode_id","provider_id")
);

-- CreateTable
CREATE TABLE "inbound_email" (
    "id" UUID NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "part_id" TEXT NOT NULL,
    "send_id" UUID,
    "from_address" TEXT NOT NULL,
    "to_addresses" TEXT[],
    "subject" TEXT,
    "text" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "inbound_email_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_suppression_removal" (
    "id" UUID NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "was" "EmailSuppressionReason" NOT NULL,
    "reason" TEXT NOT NULL,
    "removed_by" TEXT,
    "removed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "email_suppression_removal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "email_event_received_at_idx" ON "email_event"("received_at");

-- CreateIndex
CREATE INDEX "inbound_email_send_id_idx" ON "inbound_email"("send_id");

-- CreateIndex
CREATE INDEX "inbound_email_part_id_idx" ON "inbound_email"("part_id");

-- CreateIndex
CREATE UNIQUE INDEX "inbound_email_app_mode_id_provider_id_key" ON "inbound_email"("app_mode_id", "provider_id");

-- CreateIndex
CREATE INDEX "email_suppression_removal_app_mode_id_removed_at_idx" ON "email_suppression_removal"("app_mode_id", "removed_at" DESC);

-- CreateIndex
CREATE INDEX "contact_app_mode_id_email_idx" ON "contact"("app_mode_id", "email");

-- AddForeignKey
ALTER TABLE "inbound_email" ADD CONSTRAINT "inbound_email_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;
