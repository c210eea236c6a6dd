import { randomUUID } from 'node:crypto';
import type { HelpArticle, HelpAudience } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller, type TxCtx } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { problems, slugProblem, slugTaken } from './names.js';

// Staff make articles (a slug that stays the same in every language), put them in a collection or
// section, order them, say who may read them, and remove them. The words are in drafts.ts.

export interface ArticleInput {
  slug?: string | undefined;
  /** The collection or section it is in; null: none. */
  collectionId?: string | null | undefined;
  audience?: HelpAudience | undefined;
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === 'P2002';

async function check(tx: TxCtx, appModeId: string, input: ArticleInput): Promise<void> {
  const errors = problems([['slug', input.slug === undefined ? undefined : slugProblem(input.slug)]]);
  if (input.collectionId && !(await tx.db.helpCollection.count({ where: { id: input.collectionId, appModeId } }))) {
    errors.push({ field: 'collectionId', message: 'must be a collection or section of this app' });
  }
  if (errors.length) throw invalid(errors);
}

export async function createHelpArticle(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  input: ArticleInput & { slug: string },
): Promise<HelpArticle> {
  try {
    return await transaction(ctx, async (tx) => {
      if (!(await tx.db.appMode.count({ where: { id: appModeId } }))) throw notFound('No such app.');
      await check(tx, appModeId, input);
      const now = tx.clock.now();
      const last = await tx.db.helpArticle.aggregate({
        where: { appModeId, collectionId: input.collectionId ?? null },
        _max: { position: true },
      });
      return tx.db.helpArticle.create({
        data: {
          id: randomUUID(),
          appModeId,
          slug: input.slug,
          collectionId: input.collectionId ?? null,
          audience: input.audience ?? 'everyone',
          position: (last._max.position ?? -1) + 1,
          createdAt: now,
          updatedAt: now,
        },
      });
    });
  } catch (err) {
    throw isUniqueViolation(err) ? slugTaken('article') : err;
  }
}

/** Changes the slug, the collection or the audience; an audience applies at once to every published language. */
export async function changeHelpArticle(ctx: Ctx<StaffCaller>, id: string, input: ArticleInput): Promise<HelpArticle> {
  try {
    return await transaction(ctx, async (tx) => {
      const current = await tx.db.helpArticle.findUnique({ where: { id } });
      if (!current) throw notFound('No such article.');
      await check(tx, current.appModeId, input);
      return tx.db.helpArticle.update({
        where: { id },
        data: {
          slug: input.slug,
          audience: input.audience,
          ...(input.collectionId !== undefined ? { collectionId: input.collectionId } : {}),
          updatedAt: tx.clock.now(),
        },
      });
    });
  } catch (err) {
    throw isUniqueViolation(err) ? slugTaken('article') : err;
  }
}

/** Removes an article with its versions, views and votes. */
export async function removeHelpArticle(ctx: Ctx<StaffCaller>, id: string): Promise<void> {
  const { count } = await ctx.db.helpArticle.deleteMany({ where: { id } });
  if (!count) throw notFound('No such article.');
}

/** Orders the articles of one collection or section (null: those in none): `ids` first to last. */
export async function orderHelpArticles(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  collectionId: string | null,
  ids: string[],
): Promise<HelpArticle[]> {
  return transaction(ctx, async (tx) => {
    const siblings = await tx.db.helpArticle.findMany({ where: { appModeId, collectionId }, select: { id: true } });
    const errors = problems(
      ids.map((id, i) => [
        `ids.${i}`,
        siblings.some((s) => s.id === id) ? (ids.indexOf(id) !== i ? 'is named twice' : undefined) : 'is not one of these articles',
      ]),
    );
    if (errors.length) throw invalid(errors);
    for (const [position, id] of ids.entries()) await tx.db.helpArticle.update({ where: { id }, data: { position } });
    return tx.db.helpArticle.findMany({ where: { appModeId, collectionId }, orderBy: [{ position: 'asc' }, { slug: 'asc' }] });
  });
}
