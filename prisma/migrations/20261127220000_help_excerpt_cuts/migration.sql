-- Help-center search (src/domain/help/search.ts) says whether each excerpt is cut: cut_start when
-- it does not begin where the body begins, cut_end when it does not end where the body ends, so
-- that the reader is shown "…" where words were left out and nowhere else. The excerpt, its marks
-- (control characters the stored text never holds) taken out, is compared with the body's start
-- and end, space and punctuation aside (ts_headline leaves those out at a fragment's edges). The
-- rest of the statement is as before: same plan, same ranking, one ts_headline per row returned.
DROP FUNCTION crm_help_search(text, text, text, text, text, text, text, text[], int, float4[], text);

CREATE FUNCTION crm_help_search(
  p_app_mode_id text, p_language text, p_config text, p_fallback text, p_fallback_config text,
  p_query text, p_marks text, p_audiences text[], p_limit int, p_weights float4[], p_headline text)
RETURNS TABLE (article_id text, slug text, collection_id text, "position" int, audience text, language text,
               title text, summary text, published_at timestamp(3), rank real, headline text, cut_start boolean, cut_end boolean)
LANGUAGE plpgsql STABLE SET max_parallel_workers_per_gather = 0 AS $$
#variable_conflict use_column
DECLARE
  own tsquery := to_tsquery(p_config::regconfig, p_query);
  other tsquery := to_tsquery(p_fallback_config::regconfig, p_query);
  opening text := E' \t\n\r"''([«„“‘¿¡-';
  closing text := E' \t\n\r"'')].,;:!?»”’…-';
BEGIN
  RETURN QUERY
  SELECT e.article_id, e.slug, e.collection_id, e.position, e.audience, e.language, e.title, e.summary, e.published_at, e.rank,
         e.headline,
         NOT starts_with(ltrim(e.body_text, opening), ltrim(e.words, opening)),
         right(rtrim(e.body_text, closing), length(rtrim(e.words, closing))) <> rtrim(e.words, closing)
  FROM (
    SELECT best.*, translate(best.headline, E'\u0001\u0002', '') AS words
    FROM (
      SELECT h.*, ts_headline(h.search_config::regconfig, h.body_text, to_tsquery(h.search_config::regconfig, p_marks), p_headline) AS headline
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
      ) h
      OFFSET 0 -- each excerpt made once, not again for each use of it below
    ) best
  ) e
  ORDER BY e.rank DESC, e.position, e.slug;
END $$;
