-- The sweep of help pictures no article names: when it last found one named, so it looks at a
-- named picture again a day later rather than at every pass.
-- AlterTable
ALTER TABLE "help_picture" ADD COLUMN     "named_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "help_picture_named_at_created_at_idx" ON "help_picture"("named_at", "created_at");
