-- A published version's words stay in its row (compressed there if need be): a search ranks every
-- version that has its words, and a vector kept out of line cost a TOAST lookup each (a common word
-- over 3,500 versions: 13 ms, 5 ms inline). The body and blocks go out of line instead, read only for
-- the page of results. Rows written from now on; PostgreSQL moves older ones as they are updated.
ALTER TABLE "help_article_published" ALTER COLUMN "search" SET STORAGE MAIN;
