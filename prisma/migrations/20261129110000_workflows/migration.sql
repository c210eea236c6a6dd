-- CreateEnum
CREATE TYPE "WorkflowState" AS ENUM ('draft', 'live', 'paused');

-- CreateTable
CREATE TABLE "workflow" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "state" "WorkflowState" NOT NULL DEFAULT 'draft',
    "draft" JSONB NOT NULL,
    "live_version" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "workflow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_version" (
    "id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "definition" JSONB NOT NULL,
    "published_by" TEXT,
    "published_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "workflow_version_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workflow_app_mode_id_updated_at_id_idx" ON "workflow"("app_mode_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "workflow_version_workflow_id_number_key" ON "workflow_version"("workflow_id", "number");

-- AddForeignKey
ALTER TABLE "workflow_version" ADD CONSTRAINT "workflow_version_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
