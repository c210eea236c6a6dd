-- DropIndex
DROP INDEX "erase_request_app_id_external_id_blocked_until_idx";

-- AlterTable
ALTER TABLE "erase_request" ADD COLUMN     "subject_hash" TEXT,
ALTER COLUMN "external_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "invitation" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" "StaffRole" NOT NULL,
    "invited_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "invitation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "invitation_email_idx" ON "invitation"("email");

-- CreateIndex
CREATE UNIQUE INDEX "invitation_workspace_id_email_key" ON "invitation"("workspace_id", "email");

-- CreateIndex
CREATE INDEX "erase_request_app_id_subject_hash_blocked_until_idx" ON "erase_request"("app_id", "subject_hash", "blocked_until");

-- CreateIndex
CREATE INDEX "erase_request_blocked_until_idx" ON "erase_request"("blocked_until");

-- AddForeignKey
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_invited_by_id_fkey" FOREIGN KEY ("invited_by_id") REFERENCES "staff_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Which of these people are erased (or being erased) in the app now. Takes a shared lock per
-- person first, in one order, so a write that touches a person and an erase request for them
-- never interleave: the request waits for writes in flight, and writes after it see it.
-- (A VOLATILE plpgsql function reads with a fresh snapshot after the locks are held.)
CREATE FUNCTION crm_erased(p_app_id text, p_subjects text[], p_hashes text[], p_now timestamptz) RETURNS text[]
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  k bigint;
  found text[];
BEGIN
  FOR k IN SELECT DISTINCT hashtextextended('erase:' || p_app_id || ':' || s, 0) FROM unnest(p_subjects) AS s ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock_shared(k);
  END LOOP;
  SELECT coalesce(array_agg(DISTINCT subject_hash), '{}') INTO found
  FROM erase_request WHERE app_id = p_app_id AND subject_hash = ANY(p_hashes) AND blocked_until > p_now;
  RETURN found;
END $$;
