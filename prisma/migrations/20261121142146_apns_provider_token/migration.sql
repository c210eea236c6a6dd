-- CreateTable
CREATE TABLE "apns_provider_token" (
    "key_name" TEXT NOT NULL,
    "sealed" TEXT NOT NULL,
    "made_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "apns_provider_token_pkey" PRIMARY KEY ("key_name")
);
