-- CreateTable
CREATE TABLE "attachment" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "uploaded_at" TIMESTAMP(3),
    "width" INTEGER,
    "height" INTEGER,
    "part_id" TEXT,
    "position" INTEGER,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "attachment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blob" (
    "key" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blob_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "attachment_app_mode_id_external_id_idx" ON "attachment"("app_mode_id", "external_id");

-- CreateIndex
CREATE INDEX "attachment_app_mode_id_part_id_position_idx" ON "attachment"("app_mode_id", "part_id", "position");

-- CreateIndex
CREATE INDEX "attachment_created_at_idx" ON "attachment"("created_at");

-- Pictures are compressed already: kept out of line uncompressed, so reading a blob's first bytes
-- (its type and dimensions) fetches only its first chunks.
ALTER TABLE "blob" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
