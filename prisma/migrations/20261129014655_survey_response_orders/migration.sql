-- CreateIndex
CREATE INDEX "survey_response_message_id_updated_at_contact_id_idx" ON "survey_response"("message_id", "updated_at", "contact_id");

-- CreateIndex
CREATE INDEX "survey_response_message_id_started_at_contact_id_idx" ON "survey_response"("message_id", "started_at", "contact_id");
