-- CreateTable
CREATE TABLE "pending_signup" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "account_exists" BOOLEAN NOT NULL,
    "password_hash" TEXT,
    "app_name" TEXT NOT NULL,
    "workspace_name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "confirmed_at" TIMESTAMP(3),
    "workspace_id" TEXT,

    CONSTRAINT "pending_signup_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "pending_signup_email_key" ON "pending_signup"("email");

-- CreateIndex
CREATE INDEX "pending_signup_expires_at_idx" ON "pending_signup"("expires_at");
