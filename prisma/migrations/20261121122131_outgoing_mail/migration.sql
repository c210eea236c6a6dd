-- CreateEnum
CREATE TYPE "OutgoingMailVia" AS ENUM ('kept', 'smtp');

-- CreateTable
CREATE TABLE "outgoing_mail" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT,
    "kind" TEXT NOT NULL,
    "via" "OutgoingMailVia" NOT NULL,
    "from_address" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT,
    "html" TEXT,
    "headers" JSONB,
    "message_id" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "outgoing_mail_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outgoing_mail_recipient" (
    "mail_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "email" TEXT NOT NULL,

    CONSTRAINT "outgoing_mail_recipient_pkey" PRIMARY KEY ("mail_id","position")
);

-- CreateIndex
CREATE UNIQUE INDEX "outgoing_mail_idempotency_key_key" ON "outgoing_mail"("idempotency_key");

-- CreateIndex
CREATE INDEX "outgoing_mail_workspace_id_created_at_id_idx" ON "outgoing_mail"("workspace_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "outgoing_mail_recipient" ADD CONSTRAINT "outgoing_mail_recipient_mail_id_fkey" FOREIGN KEY ("mail_id") REFERENCES "outgoing_mail"("id") ON DELETE CASCADE ON UPDATE CASCADE;
