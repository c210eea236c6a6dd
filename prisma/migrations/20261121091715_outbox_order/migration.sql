-- DropIndex
DROP INDEX "outbox_event_taken_at_id_idx";

-- AlterTable
ALTER TABLE "outbox_event" DROP COLUMN "taken_at",
ADD COLUMN     "tx_id" BIGINT NOT NULL DEFAULT ((pg_current_xact_id())::text)::bigint;

-- CreateTable
CREATE TABLE "outbox_consumer" (
    "name" TEXT NOT NULL,
    "tx_id" BIGINT NOT NULL DEFAULT 0,
    "last_id" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_consumer_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "outbox_event_tx_id_id_idx" ON "outbox_event"("tx_id", "id");

-- CreateIndex
CREATE INDEX "outbox_event_created_at_idx" ON "outbox_event"("created_at");
