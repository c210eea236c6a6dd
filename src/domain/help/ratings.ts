import { erasedAmong } from '../contacts/erasure.js';
import { transaction, type Ctx, type GuestCaller, type VisitorCaller } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { LANGUAGE_TAG, matchLanguage } from './languages.js';
import type { HelpReader } from './reader.js';
import { servedVersions } from './served.js';
import { sql } from '../../db/sql.js';

// Was the article helpful? A signed-in user has one vote per article, which they may change; it
// is kept with the language the article was served to them in. A public vote is by the page's
// own `visitor` id and the language read, in a table of its own: a visitor id can never stand for
// a user, nor change a user's vote.

export const MAX_VISITOR = 100;

async function servedArticle(ctx: Ctx<GuestCaller | VisitorCaller>, reader: HelpReader, slug: string) {
  const [row] = await servedVersions(ctx, reader, sql`AND a.slug = ${slug}`);
  if (!row) throw notFound('No such article.');
  return row;
}

/** POST /guest/v1/articles/{slug}/rating. A person erased within 30 days is answered alike, and nothing is kept. */
export async function rateArticle(ctx: Ctx<GuestCaller>, reader: HelpReader, slug: string, helpful: boolean): Promise<void> {
  const article = await servedArticle(ctx, reader, slug);
  const { appModeId, externalId } = ctx.caller;
  await transaction(ctx, async (tx) => {
    // Holds the person against an erase until this commits.
    if ((await erasedAmong(tx, [externalId])).size) return;
    const vote = { appModeId, language: article.language, helpful, ratedAt: tx.clock.now() };
    await tx.db.helpArticleRating.upsert({
      where: { articleId_externalId: { articleId: article.article_id, externalId } },
      create: { articleId: article.article_id, externalId, ...vote },
      update: vote,
    });
  });
}

/** POST /public/v1/help/articles/{slug}/rating: `language` must be one of the app's (the default when left out). */
export async function rateArticleAsVisitor(
  ctx: Ctx<VisitorCaller>,
  reader: HelpReader,
  slug: string,
  input: { helpful: boolean; visitor: string; language?: string | undefined },
): Promise<void> {
  const language =
    input.language === undefined
      ? reader.app.defaultLanguage
      : LANGUAGE_TAG.test(input.language)
        ? matchLanguage(reader.app, input.language)
        : undefined;
  if (!language) throw invalid([{ field: 'language', message: `must be one of the app's languages (${reader.app.languages.join(', ')})` }]);
  const article = await servedArticle(ctx, reader, slug);
  const vote = { appModeId: reader.appModeId, helpful: input.helpful, ratedAt: ctx.clock.now() };
  await ctx.db.helpVisitorRating.upsert({
    where: { articleId_visitor_language: { articleId: article.article_id, visitor: input.visitor, language } },
    create: { articleId: article.article_id, visitor: input.visitor, language, ...vote },
    update: vote,
  });
}
