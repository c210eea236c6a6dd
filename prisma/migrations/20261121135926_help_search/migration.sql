-- DropIndex
DROP INDEX "help_article_published_summary_trgm_idx";

-- DropIndex
DROP INDEX "help_article_published_title_trgm_idx";

-- CreateTable
CREATE TABLE "help_word" (
    "app_mode_id" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "word" TEXT NOT NULL,

    CONSTRAINT "help_word_pkey" PRIMARY KEY ("app_mode_id","language","word")
);

-- CreateIndex
CREATE INDEX "help_word_trgm_idx" ON "help_word" USING GIN ("word" gin_trgm_ops);

-- The words of what is published already (new publishes add theirs, src/domain/help/words.ts).
INSERT INTO "help_word" (app_mode_id, language, word)
SELECT DISTINCT p.app_mode_id, p.language, w
FROM help_article_published p, regexp_split_to_table(lower(p.title || ' ' || p.summary || ' ' || p.body_text), '[^[:alnum:]]+') w
WHERE length(w) BETWEEN 3 AND 40
ON CONFLICT DO NOTHING;

-- Help-center search in one statement (src/domain/help/search.ts): the served versions having every
-- word, best first, with their excerpts. In plpgsql so its plan is made once per connection, not
-- for every search (the union, the anti-join and the ranking took about 2 ms to plan), and run
-- serially: the planner prices a GIN prefix scan high enough to pick a parallel plan whose
-- workers take longer to start than the whole search takes.
--
-- p_language is the reader's language, searched with p_config; articles not published in it are
-- searched in p_fallback (the app's default) with p_fallback_config. p_query is a to_tsquery text
-- (every word, the last as a prefix); p_marks the words to mark in the excerpts.
CREATE FUNCTION crm_help_search(
  p_app_mode_id text, p_language text, p_config text, p_fallback text, p_fallback_config text,
  p_query text, p_marks text, p_audiences text[], p_limit int, p_weights float4[], p_headline text)
RETURNS TABLE (article_id text, slug text, collection_id text, "position" int, audience text, language text,
               title text, summary text, published_at timestamp(3), rank real, headline text)
LANGUAGE plpgsql STABLE SET max_parallel_workers_per_gather = 0 AS $$
#variable_conflict use_column
DECLARE
  own tsquery := to_tsquery(p_config::regconfig, p_query);
  other tsquery := to_tsquery(p_fallback_config::regconfig, p_query);
BEGIN
  RETURN QUERY
  SELECT best.article_id, best.slug, best.collection_id, best.position, best.audience, best.language, best.title, best.summary,
         best.published_at, best.rank, ts_headline(best.search_config::regconfig, best.body_text, to_tsquery(best.search_config::regconfig, p_marks), p_headline)
  FROM (
    SELECT a.id AS article_id, a.slug, a.collection_id, a.position, a.audience::text AS audience, h.language, h.title, h.summary,
           h.published_at, h.rank, h.body_text, h.search_config
    FROM (
      SELECT p.article_id, p.language, p.title, p.summary, p.published_at, p.body_text, p.search_config, ts_rank(p_weights, p.search, own) AS rank
      FROM help_article_published p
      WHERE p.app_mode_id = p_app_mode_id AND p.language = p_language AND p.search @@ own
      UNION ALL
      SELECT p.article_id, p.language, p.title, p.summary, p.published_at, p.body_text, p.search_config, ts_rank(p_weights, p.search, other) AS rank
      FROM help_article_published p
      WHERE p_fallback <> p_language AND p.app_mode_id = p_app_mode_id AND p.language = p_fallback AND p.search @@ other
        AND NOT EXISTS (SELECT 1 FROM help_article_published o WHERE o.article_id = p.article_id AND o.language = p_language)
    ) h
    JOIN help_article a ON a.id = h.article_id
    WHERE a.audience::text = ANY(p_audiences)
    ORDER BY h.rank DESC, a.position, a.slug
    LIMIT p_limit
  ) best
  ORDER BY best.rank DESC, best.position, best.slug;
END $$;
