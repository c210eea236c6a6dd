-- CreateTable
CREATE TABLE "webhook_endpoint" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "topics" TEXT[],
    "description" TEXT,
    "secret_enc" TEXT NOT NULL,
    "secret_hint" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "failing_since" TIMESTAMP(3),
    "failures" INTEGER NOT NULL DEFAULT 0,
    "switched_off_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_endpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "external_id" TEXT,
    "body" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "tries" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_try" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "delivered" BOOLEAN NOT NULL,
    "status_code" INTEGER,
    "failure" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_try_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoint_app_mode_id_idx" ON "webhook_endpoint"("app_mode_id");

-- CreateIndex
CREATE INDEX "webhook_delivery_app_mode_id_external_id_idx" ON "webhook_delivery"("app_mode_id", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_delivery_endpoint_id_event_id_key" ON "webhook_delivery"("endpoint_id", "event_id");

-- CreateIndex
CREATE INDEX "webhook_try_endpoint_id_at_idx" ON "webhook_try"("endpoint_id", "at");

-- AddForeignKey
ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "webhook_endpoint_app_mode_id_fkey" FOREIGN KEY ("app_mode_id") REFERENCES "app_mode"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_try" ADD CONSTRAINT "webhook_try_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;
