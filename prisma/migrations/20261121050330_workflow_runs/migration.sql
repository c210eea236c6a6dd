-- CreateEnum
CREATE TYPE "WorkflowRunStatus" AS ENUM ('active', 'waiting', 'parked', 'ended');

-- CreateTable
CREATE TABLE "workflow_run" (
    "id" TEXT NOT NULL,
    "process" TEXT NOT NULL,
    "process_version" INTEGER NOT NULL,
    "status" "WorkflowRunStatus" NOT NULL,
    "state" JSONB NOT NULL,
    "command" JSONB NOT NULL,
    "wake_at" TIMESTAMP(3),
    "lease_until" TIMESTAMP(3),
    "inbox" JSONB NOT NULL DEFAULT '[]',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "cancel_requested_at" TIMESTAMP(3),
    "cancel_delivered_at" TIMESTAMP(3),
    "started_at" TIMESTAMP(3) NOT NULL,
    "ended_at" TIMESTAMP(3),
    "outcome" JSONB,

    CONSTRAINT "workflow_run_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workflow_run_status_wake_at_idx" ON "workflow_run"("status", "wake_at");
