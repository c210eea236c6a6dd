-- CreateEnum
CREATE TYPE "StaffRole" AS ENUM ('owner', 'admin', 'agent');

-- CreateEnum
CREATE TYPE "Mode" AS ENUM ('live', 'test');

-- CreateEnum
CREATE TYPE "ConsentChannel" AS ENUM ('email', 'push');

-- CreateTable
CREATE TABLE "workspace" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspace_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "staff_user" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "membership" (
    "workspace_id" TEXT NOT NULL,
    "staff_user_id" TEXT NOT NULL,
    "role" "StaffRole" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "membership_pkey" PRIMARY KEY ("workspace_id","staff_user_id")
);

-- CreateTable
CREATE TABLE "staff_session" (
    "id" TEXT NOT NULL,
    "staff_user_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "staff_session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_mode" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "app_key" TEXT NOT NULL,
    "identity_secret_enc" TEXT NOT NULL,
    "inbound_secret_enc" TEXT NOT NULL,
    "web_origins" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "unverified_signin" BOOLEAN NOT NULL DEFAULT false,
    "strict_data" BOOLEAN NOT NULL DEFAULT false,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "switched_off" BOOLEAN NOT NULL DEFAULT false,
    "messenger_on" BOOLEAN NOT NULL DEFAULT true,
    "help_on" BOOLEAN NOT NULL DEFAULT true,
    "inapp_on" BOOLEAN NOT NULL DEFAULT true,
    "languages" TEXT[] DEFAULT ARRAY['en']::TEXT[],
    "default_language" TEXT NOT NULL DEFAULT 'en',
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "brand_name" TEXT NOT NULL,
    "brand_color" TEXT NOT NULL DEFAULT '#3b5bdb',
    "brand_logo_url" TEXT,
    "link_base" TEXT,
    "app_store_url" TEXT,
    "play_store_url" TEXT,
    "home_origin" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_mode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "server_key" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "server_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "offers_by_email" BOOLEAN,
    "offers_by_email_changed_at" TIMESTAMP(3),
    "offers_by_push" BOOLEAN,
    "offers_by_push_changed_at" TIMESTAMP(3),
    "last_sdk" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "consent_change" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "channel" "ConsentChannel" NOT NULL,
    "value" BOOLEAN NOT NULL,
    "changed_at" TIMESTAMP(3) NOT NULL,
    "source" TEXT NOT NULL,
    "recorded_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "consent_change_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_bucket" (
    "key" TEXT NOT NULL,
    "second" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "rate_bucket_pkey" PRIMARY KEY ("key","second")
);

-- CreateIndex
CREATE UNIQUE INDEX "staff_user_email_key" ON "staff_user"("email");

-- CreateIndex
CREATE INDEX "membership_staff_user_id_idx" ON "membership"("staff_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "staff_session_token_hash_key" ON "staff_session"("token_hash");

-- CreateIndex
CREATE INDEX "staff_session_staff_user_id_idx" ON "staff_session"("staff_user_id");

-- CreateIndex
CREATE INDEX "app_workspace_id_idx" ON "app"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "app_mode_app_key_key" ON "app_mode"("app_key");

-- CreateIndex
CREATE INDEX "app_mode_web_origins_idx" ON "app_mode" USING GIN ("web_origins");

-- CreateIndex
CREATE UNIQUE INDEX "app_mode_app_id_mode_key" ON "app_mode"("app_id", "mode");

-- CreateIndex
CREATE UNIQUE INDEX "server_key_key_hash_key" ON "server_key"("key_hash");

-- CreateIndex
CREATE INDEX "server_key_app_mode_id_idx" ON "server_key"("app_mode_id");

-- CreateIndex
CREATE UNIQUE INDEX "contact_app_mode_id_external_id_key" ON "contact"("app_mode_id", "external_id");

-- CreateIndex
CREATE INDEX "consent_change_app_mode_id_contact_id_recorded_at_idx" ON "consent_change"("app_mode_id", "contact_id", "recorded_at");

-- AddForeignKey
ALTER TABLE "membership" ADD CONSTRAINT "membership_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "membership" ADD CONSTRAINT "membership_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "staff_session" ADD CONSTRAINT "staff_session_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app" ADD CONSTRAINT "app_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_mode" ADD CONSTRAINT "app_mode_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "app"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server_key" ADD CONSTRAINT "server_key_app_mode_id_fkey" FOREIGN KEY ("app_mode_id") REFERENCES "app_mode"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact" ADD CONSTRAINT "contact_app_mode_id_fkey" FOREIGN KEY ("app_mode_id") REFERENCES "app_mode"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "consent_change" ADD CONSTRAINT "consent_change_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;
