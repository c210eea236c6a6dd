import type { Ctx, StaffCaller } from '../context.js';
import { rows, sql } from '../../db/sql.js';

// What staff see of an article's readers, by language: views (counted in memory and written each
// second, views.ts), and helpful and not-helpful votes, signed-in users' and visitors' apart.

export interface ArticleStats {
  language: string;
  views: number;
  helpful: number;
  notHelpful: number;
  visitorHelpful: number;
  visitorNotHelpful: number;
}

/** Each article's figures by language, for many articles in one statement (a staff list asks for a page of them). */
export async function articleStats(ctx: Ctx<StaffCaller>, articleIds: readonly string[]): Promise<Map<string, ArticleStats[]>> {
  const ids = [...articleIds];
  const found = await rows<{
    article_id: string;
    language: string;
    views: string;
    helpful: string;
    not_helpful: string;
    visitor_helpful: string;
    visitor_not_helpful: string;
  }>(
    ctx,
    sql`
    WITH v AS (SELECT article_id, language, views FROM help_article_stat WHERE article_id = ANY(${ids}::text[])),
         u AS (SELECT article_id, language, count(*) FILTER (WHERE helpful) AS yes, count(*) FILTER (WHERE NOT helpful) AS no
               FROM help_article_rating WHERE article_id = ANY(${ids}::text[]) GROUP BY article_id, language),
         p AS (SELECT article_id, language, count(*) FILTER (WHERE helpful) AS yes, count(*) FILTER (WHERE NOT helpful) AS no
               FROM help_visitor_rating WHERE article_id = ANY(${ids}::text[]) GROUP BY article_id, language),
         l AS (SELECT article_id, language FROM v UNION SELECT article_id, language FROM u UNION SELECT article_id, language FROM p)
    SELECT l.article_id, l.language, coalesce(v.views, 0) AS views, coalesce(u.yes, 0) AS helpful, coalesce(u.no, 0) AS not_helpful,
           coalesce(p.yes, 0) AS visitor_helpful, coalesce(p.no, 0) AS visitor_not_helpful
    FROM l LEFT JOIN v USING (article_id, language) LEFT JOIN u USING (article_id, language) LEFT JOIN p USING (article_id, language)
    ORDER BY l.article_id, l.language`,
  );
  const out = new Map<string, ArticleStats[]>(ids.map((id) => [id, []]));
  for (const r of found) {
    out.get(r.article_id)!.push({
      language: r.language,
      views: Number(r.views),
      helpful: Number(r.helpful),
      notHelpful: Number(r.not_helpful),
      visitorHelpful: Number(r.visitor_helpful),
      visitorNotHelpful: Number(r.visitor_not_helpful),
    });
  }
  return out;
}
