-- The help center (prisma/schema/help.prisma). Trigrams for the typo-tolerant search fallback: a
-- trusted extension, which a database owner may create.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateEnum
CREATE TYPE "HelpAudience" AS ENUM ('everyone', 'signed_in');

-- CreateTable
CREATE TABLE "help_collection" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "parent_id" TEXT,
    "slug" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "help_collection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "help_collection_text" (
    "collection_id" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "help_collection_text_pkey" PRIMARY KEY ("collection_id","language")
);

-- CreateTable
CREATE TABLE "help_article" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "collection_id" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "audience" "HelpAudience" NOT NULL DEFAULT 'everyone',
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "help_article_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "help_article_draft" (
    "article_id" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "blocks" JSONB NOT NULL,
    "edited_by" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "help_article_draft_pkey" PRIMARY KEY ("article_id","language")
);

-- CreateTable
CREATE TABLE "help_article_published" (
    "article_id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "blocks" JSONB NOT NULL,
    "body_text" TEXT NOT NULL,
    "search_config" TEXT NOT NULL,
    "search" tsvector,
    "published_at" TIMESTAMP(3) NOT NULL,
    "published_by" TEXT,

    CONSTRAINT "help_article_published_pkey" PRIMARY KEY ("article_id","language")
);

-- CreateTable
CREATE TABLE "help_article_stat" (
    "article_id" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "views" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "help_article_stat_pkey" PRIMARY KEY ("article_id","language")
);

-- CreateTable
CREATE TABLE "help_article_rating" (
    "article_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "helpful" BOOLEAN NOT NULL,
    "rated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "help_article_rating_pkey" PRIMARY KEY ("article_id","external_id")
);

-- CreateTable
CREATE TABLE "help_visitor_rating" (
    "article_id" TEXT NOT NULL,
    "visitor" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "helpful" BOOLEAN NOT NULL,
    "rated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "help_visitor_rating_pkey" PRIMARY KEY ("article_id","visitor","language")
);

-- CreateTable
CREATE TABLE "help_picture" (
    "id" TEXT NOT NULL,
    "app_mode_id" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "uploaded_at" TIMESTAMP(3),
    "created_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "help_picture_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "help_collection_app_mode_id_parent_id_position_idx" ON "help_collection"("app_mode_id", "parent_id", "position");

-- CreateIndex
CREATE INDEX "help_collection_parent_id_idx" ON "help_collection"("parent_id");

-- CreateIndex
CREATE UNIQUE INDEX "help_collection_app_mode_id_slug_key" ON "help_collection"("app_mode_id", "slug");

-- CreateIndex
CREATE INDEX "help_article_app_mode_id_collection_id_position_idx" ON "help_article"("app_mode_id", "collection_id", "position");

-- CreateIndex
CREATE INDEX "help_article_collection_id_idx" ON "help_article"("collection_id");

-- CreateIndex
CREATE UNIQUE INDEX "help_article_app_mode_id_slug_key" ON "help_article"("app_mode_id", "slug");

-- CreateIndex
CREATE INDEX "help_article_published_search_idx" ON "help_article_published" USING GIN ("search");

-- CreateIndex
CREATE INDEX "help_article_published_app_mode_id_language_idx" ON "help_article_published"("app_mode_id", "language");

-- CreateIndex
CREATE INDEX "help_article_published_title_trgm_idx" ON "help_article_published" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "help_article_published_summary_trgm_idx" ON "help_article_published" USING GIN ("summary" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "help_article_rating_app_mode_id_external_id_idx" ON "help_article_rating"("app_mode_id", "external_id");

-- CreateIndex
CREATE INDEX "help_picture_app_mode_id_created_at_idx" ON "help_picture"("app_mode_id", "created_at");

-- AddForeignKey
ALTER TABLE "help_collection" ADD CONSTRAINT "help_collection_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "help_collection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "help_collection_text" ADD CONSTRAINT "help_collection_text_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "help_collection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "help_article" ADD CONSTRAINT "help_article_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "help_collection"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "help_article_draft" ADD CONSTRAINT "help_article_draft_article_id_fkey" FOREIGN KEY ("article_id") REFERENCES "help_article"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "help_article_published" ADD CONSTRAINT "help_article_published_article_id_fkey" FOREIGN KEY ("article_id") REFERENCES "help_article"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "help_article_stat" ADD CONSTRAINT "help_article_stat_article_id_fkey" FOREIGN KEY ("article_id") REFERENCES "help_article"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "help_article_rating" ADD CONSTRAINT "help_article_rating_article_id_fkey" FOREIGN KEY ("article_id") REFERENCES "help_article"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "help_visitor_rating" ADD CONSTRAINT "help_visitor_rating_article_id_fkey" FOREIGN KEY ("article_id") REFERENCES "help_article"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A published version's words, weighted: title A, summary B, body C, in the text-search
-- configuration of its language (search_config, chosen by src/domain/help/languages.ts).
CREATE FUNCTION crm_help_published_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := setweight(to_tsvector(NEW.search_config::regconfig, NEW.title), 'A')
    || setweight(to_tsvector(NEW.search_config::regconfig, NEW.summary), 'B')
    || setweight(to_tsvector(NEW.search_config::regconfig, NEW.body_text), 'C');
  RETURN NEW;
END $$;

CREATE TRIGGER help_published_search BEFORE INSERT OR UPDATE OF title, summary, body_text, search_config ON "help_article_published"
  FOR EACH ROW EXECUTE FUNCTION crm_help_published_search();
