-- DropIndex
DROP INDEX "consent_change_app_mode_id_contact_id_recorded_at_idx";

-- CreateIndex
CREATE INDEX "consent_change_contact_id_recorded_at_idx" ON "consent_change"("contact_id", "recorded_at");

-- CreateIndex
CREATE INDEX "contact_app_mode_id_updated_at_id_idx" ON "contact"("app_mode_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "erase_request_app_id_requested_at_idx" ON "erase_request"("app_id", "requested_at" DESC);
