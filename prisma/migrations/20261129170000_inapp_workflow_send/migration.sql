-- An in-app message may be for workflows only: shown to the people a workflow's send step sends it to.
ALTER TABLE "inapp_message" ADD COLUMN "workflow_only" BOOLEAN NOT NULL DEFAULT false;

-- The in-app messages workflows sent each person: a check-in shows them as if the person were in their audience.
CREATE TABLE "inapp_workflow_send" (
    "contact_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "step_key" TEXT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "inapp_workflow_send_pkey" PRIMARY KEY ("contact_id","message_id")
);
