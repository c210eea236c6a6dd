-- Email out: messages staff compose, each sending's own version, each email sent with its first
-- opens and clicks (a person's and a machine's apart), and each link clicked once by each.
-- CreateEnum
CREATE TYPE "EmailSendState" AS ENUM ('sent', 'skipped', 'failed');

-- CreateTable
CREATE TABLE "email_message" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "preheader" TEXT NOT NULL DEFAULT '',
    "blocks" JSONB NOT NULL,
    "topic_id" TEXT,
    "from_name" TEXT,
    "from_address" TEXT,
    "reply_to" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "email_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_version" (
    "id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "subject" TEXT NOT NULL,
    "preheader" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "links" TEXT[],
    "topic_id" TEXT,
    "from_name" TEXT,
    "from_address" TEXT,
    "reply_to" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "email_version_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_send" (
    "id" UUID NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "version_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "contact_id" TEXT,
    "test" BOOLEAN NOT NULL DEFAULT false,
    "address" TEXT NOT NULL,
    "mail_message_id" TEXT,
    "state" "EmailSendState" NOT NULL,
    "reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "opened_at" TIMESTAMP(3),
    "machine_opened_at" TIMESTAMP(3),
    "clicked_at" TIMESTAMP(3),
    "machine_clicked_at" TIMESTAMP(3),
    "unsubscribed_at" TIMESTAMP(3),

    CONSTRAINT "email_send_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_click" (
    "send_id" UUID NOT NULL,
    "link" INTEGER NOT NULL,
    "machine" BOOLEAN NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "email_click_pkey" PRIMARY KEY ("send_id","link","machine")
);

-- CreateIndex
CREATE INDEX "email_message_app_mode_id_created_at_id_idx" ON "email_message"("app_mode_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "email_version_message_id_number_key" ON "email_version"("message_id", "number");

-- CreateIndex
CREATE UNIQUE INDEX "email_send_mail_message_id_key" ON "email_send"("mail_message_id");

-- CreateIndex
CREATE INDEX "email_send_message_id_state_idx" ON "email_send"("message_id", "state");

-- CreateIndex
CREATE INDEX "email_send_contact_id_idx" ON "email_send"("contact_id");

-- CreateIndex
CREATE UNIQUE INDEX "email_send_version_id_contact_id_key" ON "email_send"("version_id", "contact_id");

-- AddForeignKey
ALTER TABLE "email_version" ADD CONSTRAINT "email_version_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "email_message"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_send" ADD CONSTRAINT "email_send_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "email_version"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_send" ADD CONSTRAINT "email_send_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_click" ADD CONSTRAINT "email_click_send_id_fkey" FOREIGN KEY ("send_id") REFERENCES "email_send"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A test copy goes to a team member's address and names no person; every other send names one.
ALTER TABLE "email_send" ADD CONSTRAINT "email_send_test_or_person" CHECK ("test" = ("contact_id" IS NULL));
