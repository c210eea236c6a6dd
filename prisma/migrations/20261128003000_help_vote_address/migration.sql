-- Public article votes counted per client address, article and UTC day (src/domain/help/ratings.ts):
-- the address only as a keyed hash of the app-mode, the day and the address. The first three new
-- votes are kept, the rest answered alike and not kept; the server's sweep drops past days.
-- CreateTable
CREATE TABLE "help_vote_address" (
    "article_id" TEXT NOT NULL,
    "address_hash" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "votes" INTEGER NOT NULL,

    CONSTRAINT "help_vote_address_pkey" PRIMARY KEY ("article_id","address_hash","day")
);

-- CreateIndex
CREATE INDEX "help_vote_address_day_idx" ON "help_vote_address"("day");

-- AddForeignKey
ALTER TABLE "help_vote_address" ADD CONSTRAINT "help_vote_address_article_id_fkey" FOREIGN KEY ("article_id") REFERENCES "help_article"("id") ON DELETE CASCADE ON UPDATE CASCADE;
