-- AlterTable
ALTER TABLE "inapp_receipt" ADD COLUMN     "recent_sessions" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- The session each receipt was last answered in is its first recent session.
UPDATE "inapp_receipt" SET "recent_sessions" = ARRAY["last_session"] WHERE "last_session" IS NOT NULL;
