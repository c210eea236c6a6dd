-- CreateTable
CREATE TABLE "app_webhook_secret" (
    "app_mode_id" TEXT NOT NULL,
    "secret_enc" TEXT NOT NULL,
    "secret_hint" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "app_webhook_secret_pkey" PRIMARY KEY ("app_mode_id")
);
