-- CreateTable
CREATE TABLE "team" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "team_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "team_member" (
    "team_id" TEXT NOT NULL,
    "staff_user_id" TEXT NOT NULL,
    "added_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "team_member_pkey" PRIMARY KEY ("team_id","staff_user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "team_workspace_id_name_key" ON "team"("workspace_id", "name");

-- CreateIndex
CREATE INDEX "team_member_staff_user_id_idx" ON "team_member"("staff_user_id");

-- AddForeignKey
ALTER TABLE "team_member" ADD CONSTRAINT "team_member_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
