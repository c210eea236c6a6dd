-- A person's answers to a survey (or to a test copy of one), kept as they go and completed by a submit.
CREATE TABLE "survey_response" (
    "message_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "variant" TEXT NOT NULL,
    "test" BOOLEAN NOT NULL DEFAULT false,
    "answers" JSONB NOT NULL DEFAULT '[]',
    "path" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "submitted_at" TIMESTAMPTZ(3),

    CONSTRAINT "survey_response_pkey" PRIMARY KEY ("message_id","contact_id")
);

CREATE INDEX "survey_response_contact_id_idx" ON "survey_response"("contact_id");

CREATE INDEX "survey_response_message_id_submitted_at_idx" ON "survey_response"("message_id", "submitted_at");
