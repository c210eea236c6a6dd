import type { HelpArticleDraft, HelpArticlePublished, Prisma } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { conflict, invalid, notFound } from '../errors.js';
import { emit } from '../outbox.js';
import { linkProblem, plainTextOf, readBlocks, type ContentBlock } from './blocks.js';
import { searchConfigOf } from './languages.js';
import { languageProblem, MAX_SUMMARY, MAX_TITLE, problems, wordsProblem } from './names.js';
import { holdPictures, keptPictureUrls, pictureIdOf } from './pictures.js';
import { keepWords, wordsOfText } from './spelling.js';

// An article's words, one version per language. Staff edit the draft; readers see the published
// copy, which stays as it was until the draft is published again (or the language unpublished).
// Publishing and unpublishing go to the outbox (HELP_ARTICLE_PUBLISHED), for live staff tools.

export const HELP_ARTICLE_PUBLISHED = 'help.article_published';
export const HELP_ARTICLE_UNPUBLISHED = 'help.article_unpublished';

/**
 * The most text an article's blocks may hold in one language, as search reads it (a line per block
 * or list item); title and summary aside. Search reads no more of a body than this, and each of
 * its excerpts reads one passage of at most 1,000 characters (help_article_passage).
 */
export const MAX_ARTICLE_TEXT = 100_000;

export interface DraftInput {
  title: string;
  summary?: string | null | undefined;
  /** ContentBlocks without formatting members. */
  blocks: unknown;
}

/** The blocks an article may hold: formatting refused, images by https or as one of the app's pictures. */
export function readArticleBlocks(ctx: Ctx, blocks: unknown, field = 'blocks') {
  return readBlocks(
    blocks,
    {
      formatting: false,
      imageUrl: (url) => {
        if (pictureIdOf(ctx, url)) return { url };
        const problem = linkProblem(url) ?? (url.startsWith('/') ? 'must be an https address or one of the app pictures' : undefined);
        return problem ? { problem } : { url };
      },
    },
    field,
  );
}

export async function saveHelpDraft(
  ctx: Ctx<StaffCaller>,
  articleId: string,
  language: string,
  input: DraftInput,
): Promise<HelpArticleDraft> {
  const article = await ctx.db.helpArticle.findUnique({ where: { id: articleId }, select: { appModeId: true } });
  if (!article) throw notFound('No such article.');
  const mode = await ctx.db.appMode.findUniqueOrThrow({ where: { id: article.appModeId }, select: { languages: true } });
  const read = readArticleBlocks(ctx, input.blocks);
  const errors = problems([
    ['language', languageProblem(language, mode.languages)],
    ['title', wordsProblem(input.title, MAX_TITLE, true)],
    ['summary', input.summary == null ? undefined : wordsProblem(input.summary, MAX_SUMMARY, false)],
  ]);
  if ('errors' in read) errors.push(...read.errors);
  else {
    const length = plainTextOf(read.blocks).length;
    if (length > MAX_ARTICLE_TEXT)
      errors.push({ field: 'blocks', message: `must hold at most ${MAX_ARTICLE_TEXT} characters of text (these hold ${length})` });
  }
  if (errors.length || 'errors' in read) throw invalid(errors);
  const blocks = (await keptPictureUrls(ctx, article.appModeId, read.blocks, 'blocks')) as unknown as Prisma.InputJsonValue;
  const data = {
    title: input.title.trim(),
    summary: input.summary?.trim() ?? '',
    blocks,
    editedBy: ctx.caller.staffUser.id,
    updatedAt: ctx.clock.now(),
  };
  return transaction(ctx, async (tx) => {
    await holdPictures(tx, article.appModeId, read.blocks, 'blocks');
    return tx.db.helpArticleDraft.upsert({
      where: { articleId_language: { articleId, language } },
      create: { articleId, language, ...data },
      update: data,
    });
  });
}

/** Publishes the language's draft as it is now: readers see it from this commit on. */
export async function publishHelpArticle(ctx: Ctx<StaffCaller>, articleId: string, language: string): Promise<HelpArticlePublished> {
  return transaction(ctx, async (tx) => {
    const article = await tx.db.helpArticle.findUnique({ where: { id: articleId } });
    if (!article) throw notFound('No such article.');
    const draft = await tx.db.helpArticleDraft.findUnique({ where: { articleId_language: { articleId, language } } });
    if (!draft) throw conflict('no_draft', `The article has no draft in ${language} to publish.`);
    const now = tx.clock.now();
    const data = {
      appModeId: article.appModeId,
      title: draft.title,
      summary: draft.summary,
      blocks: draft.blocks as Prisma.InputJsonValue,
      bodyText: plainTextOf(draft.blocks as unknown as ContentBlock[]),
      searchConfig: searchConfigOf(language),
      publishedAt: now,
      publishedBy: tx.caller.staffUser.id,
    };
    const published = await tx.db.helpArticlePublished.upsert({
      where: { articleId_language: { articleId, language } },
      create: { articleId, language, ...data },
      update: data,
    });
    // The words search reads (a draft saved before the bound may hold more).
    await keepWords(tx, article.appModeId, language, wordsOfText(data.title, data.summary, data.bodyText.slice(0, MAX_ARTICLE_TEXT)));
    await tx.db.helpArticle.update({ where: { id: articleId }, data: { updatedAt: now } });
    await emit(tx, HELP_ARTICLE_PUBLISHED, { appModeId: article.appModeId, data: { article_id: articleId, slug: article.slug, language } });
    return published;
  });
}

/** Withdraws the language's published version; the draft stays. */
export async function unpublishHelpArticle(ctx: Ctx<StaffCaller>, articleId: string, language: string): Promise<void> {
  await transaction(ctx, async (tx) => {
    const article = await tx.db.helpArticle.findUnique({ where: { id: articleId } });
    if (!article) throw notFound('No such article.');
    const { count } = await tx.db.helpArticlePublished.deleteMany({ where: { articleId, language } });
    if (!count) throw notFound(`The article is not published in ${language}.`);
    await emit(tx, HELP_ARTICLE_UNPUBLISHED, {
      appModeId: article.appModeId,
      data: { article_id: articleId, slug: article.slug, language },
    });
  });
}
