-- CreateTable
CREATE TABLE "workflow_watch" (
    "app_mode_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,

    CONSTRAINT "workflow_watch_pkey" PRIMARY KEY ("app_mode_id","name","workflow_id")
);

-- CreateTable
CREATE TABLE "workflow_audience" (
    "workflow_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "inside" BOOLEAN NOT NULL,
    "changed_by" BIGINT NOT NULL,

    CONSTRAINT "workflow_audience_pkey" PRIMARY KEY ("workflow_id","contact_id")
);

-- CreateTable
CREATE TABLE "workflow_date_sweep" (
    "workflow_id" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "after_contact" TEXT,

    CONSTRAINT "workflow_date_sweep_pkey" PRIMARY KEY ("workflow_id")
);

-- CreateIndex
CREATE INDEX "workflow_watch_workflow_id_idx" ON "workflow_watch"("workflow_id");

-- CreateIndex
CREATE INDEX "workflow_audience_contact_id_idx" ON "workflow_audience"("contact_id");
