import type { Ctx, StaffCaller } from '../context.js';

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

export async function articleStats(ctx: Ctx<StaffCaller>, articleId: string): Promise<ArticleStats[]> {
  const rows = await ctx.db.$queryRaw<{ language: string; views: bigint; helpful: bigint; not_helpful: bigint; visitor_helpful: bigint; visitor_not_helpful: bigint }[]>`
    WITH v AS (SELECT language, views FROM help_article_stat WHERE article_id = ${articleId}),
         u AS (SELECT language, count(*) FILTER (WHERE helpful) AS yes, count(*) FILTER (WHERE NOT helpful) AS no FROM help_article_rating WHERE article_id = ${articleId} GROUP BY language),
         p AS (SELECT language, count(*) FILTER (WHERE helpful) AS yes, count(*) FILTER (WHERE NOT helpful) AS no FROM help_visitor_rating WHERE article_id = ${articleId} GROUP BY language),
         l AS (SELECT language FROM v UNION SELECT language FROM u UNION SELECT language FROM p)
    SELECT l.language, coalesce(v.views, 0) AS views, coalesce(u.yes, 0) AS helpful, coalesce(u.no, 0) AS not_helpful,
           coalesce(p.yes, 0) AS visitor_helpful, coalesce(p.no, 0) AS visitor_not_helpful
    FROM l LEFT JOIN v USING (language) LEFT JOIN u USING (language) LEFT JOIN p USING (language)
    ORDER BY l.language`;
  return rows.map((r) => ({
    language: r.language,
    views: Number(r.views),
    helpful: Number(r.helpful),
    notHelpful: Number(r.not_helpful),
    visitorHelpful: Number(r.visitor_helpful),
    visitorNotHelpful: Number(r.visitor_not_helpful),
  }));
}
