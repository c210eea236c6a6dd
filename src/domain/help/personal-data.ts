import type { PersonalDataArea } from '../personal-data/registry.js';

// A person's votes on articles (help_article_rating). Visitors' votes name no person: the id is
// the page's own, never a user's.

export const helpData: PersonalDataArea = {
  name: 'help',
  tables: ['help_article_rating'],
  async exportOf({ db }, { appModeId, externalId }) {
    const rows = await db.helpArticleRating.findMany({
      where: { appModeId, externalId },
      include: { article: { select: { slug: true } } },
      orderBy: { ratedAt: 'asc' },
    });
    if (!rows.length) return undefined;
    return {
      articleRatings: rows.map((r) => ({
        article: r.article.slug,
        helpful: r.helpful,
        language: r.language,
        ratedAt: r.ratedAt.toISOString(),
      })),
    };
  },
  async erase({ db }, { externalId, appModeIds }) {
    const { count } = await db.helpArticleRating.deleteMany({ where: { appModeId: { in: appModeIds }, externalId } });
    return { articleRatings: count };
  },
};
