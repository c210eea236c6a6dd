import { keyset, pagedMember, type PersonalDataArea } from '../personal-data/registry.js';

// A person's votes on articles (help_article_rating). Visitors' votes name no person: the id is
// the page's own, never a user's.

export const helpData: PersonalDataArea = {
  name: 'help',
  tables: ['help_article_rating'],
  async exportOf({ db }, { appModeId, externalId }) {
    const articleRatings = await pagedMember(
      (last: { articleId: string; externalId: string } | undefined, take) =>
        db.helpArticleRating.findMany({
          where: { appModeId, externalId },
          include: { article: { select: { slug: true } } },
          orderBy: [{ ratedAt: 'asc' }, { articleId: 'asc' }],
          ...keyset(last && { articleId_externalId: { articleId: last.articleId, externalId: last.externalId } }, take),
        }),
      (r) => ({
        article: r.article.slug,
        helpful: r.helpful,
        language: r.language,
        ratedAt: r.ratedAt.toISOString(),
      }),
    );
    return articleRatings && { articleRatings };
  },
  async erase({ db }, { externalId, appModeIds }) {
    const { count } = await db.helpArticleRating.deleteMany({ where: { appModeId: { in: appModeIds }, externalId } });
    return { articleRatings: count };
  },
};
