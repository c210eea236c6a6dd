-- Help-center search reads a bounded amount of each article however long it is. Before, each hit's
-- excerpt was made by ts_headline over the whole body (about 100 ms for an 800 KB body, linear in
-- its length), and the version's words were those of the whole body. Now:
--   * a version's words (search) are those of its title, summary and the first 100,000 characters
--     of its body (the most staff may save, src/domain/help/drafts.ts);
--   * the body is also kept as passages of at most 1,000 characters (help_article_passage: lines
--     joined while they fit, a longer line cut at its last space before the bound), each with its
--     words; a hit's excerpt is made from its best passage for the words asked (the first when
--     none has them), so an excerpt reads at most 1,000 characters.
-- Both are kept by triggers, whoever writes the published row (the service, a bulk load).

-- CreateTable
CREATE TABLE "help_article_passage" (
    "article_id" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "search" tsvector NOT NULL,

    CONSTRAINT "help_article_passage_pkey" PRIMARY KEY ("article_id","language","n")
);

-- AddForeignKey
ALTER TABLE "help_article_passage" ADD CONSTRAINT "help_article_passage_article_id_language_fkey" FOREIGN KEY ("article_id", "language") REFERENCES "help_article_published"("article_id", "language") ON DELETE CASCADE ON UPDATE CASCADE;

-- The passages of a body: its first 100,000 characters, lines (the blocks and list items) joined by
-- a line break while they fit in 1,000 characters, a longer line cut at its last space before the
-- bound (else at the bound). Numbered from 0 in order.
CREATE FUNCTION crm_help_passages(p_body text) RETURNS TABLE (n int, passage text) LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  bound constant int := 1000;
  line text;
  pending text := '';
  cut int;
BEGIN
  n := -1;
  FOREACH line IN ARRAY string_to_array(left(p_body, 100000), E'\n') LOOP
    WHILE length(line) > bound LOOP
      IF pending <> '' THEN
        n := n + 1; passage := pending; RETURN NEXT; pending := '';
      END IF;
      cut := least(bound, bound - strpos(reverse(left(line, bound)), ' ') + 1);
      n := n + 1; passage := left(line, cut); RETURN NEXT;
      line := substr(line, cut + 1);
    END LOOP;
    IF pending = '' THEN
      pending := line;
    ELSIF length(pending) + 1 + length(line) <= bound THEN
      pending := pending || E'\n' || line;
    ELSE
      n := n + 1; passage := pending; RETURN NEXT; pending := line;
    END IF;
  END LOOP;
  IF pending <> '' THEN
    n := n + 1; passage := pending; RETURN NEXT;
  END IF;
END $$;

-- A published version's words, weighted: title A, summary B, the body's first 100,000 characters C.
CREATE OR REPLACE FUNCTION crm_help_published_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := setweight(to_tsvector(NEW.search_config::regconfig, NEW.title), 'A')
    || setweight(to_tsvector(NEW.search_config::regconfig, NEW.summary), 'B')
    || setweight(to_tsvector(NEW.search_config::regconfig, left(NEW.body_text, 100000)), 'C');
  RETURN NEW;
END $$;

-- A published version's passages, made anew with its body.
CREATE FUNCTION crm_help_published_passages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM help_article_passage WHERE article_id = NEW.article_id AND language = NEW.language;
  INSERT INTO help_article_passage (article_id, language, n, text, search)
  SELECT NEW.article_id, NEW.language, p.n, p.passage, to_tsvector(NEW.search_config::regconfig, p.passage)
  FROM crm_help_passages(NEW.body_text) p;
  RETURN NULL;
END $$;

CREATE TRIGGER help_published_passages AFTER INSERT OR UPDATE OF body_text, search_config ON "help_article_published"
  FOR EACH ROW EXECUTE FUNCTION crm_help_published_passages();

-- What is published already: its words bounded and its passages made (both triggers fire).
UPDATE "help_article_published" SET body_text = body_text;

-- The search (as in 20261127220000_help_excerpt_cuts) with each excerpt made from the hit's best
-- passage. cut_start: the excerpt does not begin where the body begins (its passage is not the first,
-- or it starts further in); cut_end: it does not end where the body ends.
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
         coalesce(NOT (e.first AND starts_with(ltrim(e.passage, opening), ltrim(e.words, opening))), false),
         coalesce(right(rtrim(e.passage, closing), length(rtrim(e.words, closing))) <> rtrim(e.words, closing) OR NOT e.last, false)
  FROM (
    SELECT best.*, translate(best.headline, E'\u0001\u0002', '') AS words
    FROM (
      SELECT h.*, x.passage, x.first, x.last,
             ts_headline(h.search_config::regconfig, coalesce(x.passage, ''), to_tsquery(h.search_config::regconfig, p_marks), p_headline) AS headline
      FROM (
        SELECT a.id AS article_id, a.slug, a.collection_id, a.position, a.audience::text AS audience, h.language, h.title, h.summary,
               h.published_at, h.rank, h.search_config
        FROM (
          SELECT p.article_id, p.language, p.title, p.summary, p.published_at, p.search_config, ts_rank(p_weights, p.search, own) AS rank
          FROM help_article_published p
          WHERE p.app_mode_id = p_app_mode_id AND p.language = p_language AND p.search @@ own
          UNION ALL
          SELECT p.article_id, p.language, p.title, p.summary, p.published_at, p.search_config, ts_rank(p_weights, p.search, other) AS rank
          FROM help_article_published p
          WHERE p_fallback <> p_language AND p.app_mode_id = p_app_mode_id AND p.language = p_fallback AND p.search @@ other
            AND NOT EXISTS (SELECT 1 FROM help_article_published o WHERE o.article_id = p.article_id AND o.language = p_language)
        ) h
        JOIN help_article a ON a.id = h.article_id
        WHERE a.audience::text = ANY(p_audiences)
        ORDER BY h.rank DESC, a.position, a.slug
        LIMIT p_limit
      ) h
      LEFT JOIN LATERAL (
        SELECT x.text AS passage, x.n = 0 AS first,
               NOT EXISTS (SELECT 1 FROM help_article_passage y WHERE y.article_id = x.article_id AND y.language = x.language AND y.n > x.n) AS last
        FROM help_article_passage x
        WHERE x.article_id = h.article_id AND x.language = h.language
        ORDER BY ts_rank(x.search, to_tsquery(h.search_config::regconfig, p_marks)) DESC, x.n
        LIMIT 1
      ) x ON true
      OFFSET 0 -- each excerpt made once, not again for each use of it below
    ) best
  ) e
  ORDER BY e.rank DESC, e.position, e.slug;
END $$;
