-- Team members attach pictures to replies and notes too: an attachment is made by a user (external_id)
-- or by a team member (staff_user_id) for one conversation (conversation_id), never both.
ALTER TABLE "attachment" ADD COLUMN     "conversation_id" TEXT,
ADD COLUMN     "staff_user_id" TEXT,
ALTER COLUMN "external_id" DROP NOT NULL;

ALTER TABLE "attachment" ADD CONSTRAINT "attachment_one_owner"
  CHECK (num_nonnulls("external_id", "staff_user_id") = 1 AND ("staff_user_id" IS NULL) = ("conversation_id" IS NULL));

-- A team member's pictures are erased with the person whose conversation they were made for.
CREATE INDEX "attachment_conversation_id_idx" ON "attachment"("conversation_id");
