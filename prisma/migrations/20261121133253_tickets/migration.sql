-- CreateTable
CREATE TABLE "ticket_type" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "states" JSONB NOT NULL,
    "archived_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ticket_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ticket" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "contact_id" TEXT NOT NULL,
    "type_id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL,
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ticket_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ticket_state_change" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "ticket_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "from_state" TEXT,
    "to_state" TEXT NOT NULL,
    "by_kind" "PartAuthorKind" NOT NULL,
    "by_id" TEXT,
    "by_name" TEXT NOT NULL,
    "part_id" TEXT,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ticket_state_change_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ticket_counter" (
    "app_mode_id" TEXT NOT NULL,
    "last_number" INTEGER NOT NULL,

    CONSTRAINT "ticket_counter_pkey" PRIMARY KEY ("app_mode_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ticket_type_app_mode_id_name_key" ON "ticket_type"("app_mode_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ticket_conversation_id_key" ON "ticket"("conversation_id");

-- CreateIndex
CREATE INDEX "ticket_app_mode_id_contact_id_created_at_id_idx" ON "ticket"("app_mode_id", "contact_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ticket_app_mode_id_updated_at_id_idx" ON "ticket"("app_mode_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ticket_app_mode_id_type_id_state_updated_at_id_idx" ON "ticket"("app_mode_id", "type_id", "state", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "ticket_app_mode_id_number_key" ON "ticket"("app_mode_id", "number");

-- CreateIndex
CREATE UNIQUE INDEX "ticket_state_change_ticket_id_seq_key" ON "ticket_state_change"("ticket_id", "seq");

-- AddForeignKey
ALTER TABLE "ticket" ADD CONSTRAINT "ticket_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ticket" ADD CONSTRAINT "ticket_type_id_fkey" FOREIGN KEY ("type_id") REFERENCES "ticket_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ticket" ADD CONSTRAINT "ticket_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ticket_state_change" ADD CONSTRAINT "ticket_state_change_ticket_id_fkey" FOREIGN KEY ("ticket_id") REFERENCES "ticket"("id") ON DELETE CASCADE ON UPDATE CASCADE;
