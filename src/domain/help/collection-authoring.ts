import { randomUUID } from 'node:crypto';
import type { HelpCollection } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller, type TxCtx } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { languageProblem, MAX_DESCRIPTION, MAX_NAME, problems, slugProblem, slugTaken, wordsProblem } from './names.js';

// Staff make collections and their sections (one level: a section is in a collection, never in a
// section), name them in each language, order them and remove them.

export interface CollectionText {
  language: string;
  name: string;
  description?: string | null | undefined;
}

export interface CollectionInput {
  slug?: string | undefined;
  /** The collection it is a section of; null: a collection of its own. */
  parentId?: string | null | undefined;
  /** Names by language: each given language's name and description are set. */
  texts?: CollectionText[] | undefined;
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === 'P2002';

async function languagesOf(ctx: Ctx, appModeId: string): Promise<string[]> {
  const mode = await ctx.db.appMode.findUnique({ where: { id: appModeId }, select: { languages: true } });
  if (!mode) throw notFound('No such app.');
  return mode.languages;
}

async function check(tx: TxCtx, appModeId: string, input: CollectionInput, self: string | null): Promise<void> {
  const languages = await languagesOf(tx, appModeId);
  const errors = problems([
    ['slug', input.slug === undefined ? undefined : slugProblem(input.slug)],
    ...(input.texts ?? []).flatMap((t, i): [string, string | undefined][] => [
      [`texts.${i}.language`, languageProblem(t.language, languages)],
      [`texts.${i}.name`, wordsProblem(t.name, MAX_NAME, true)],
      [`texts.${i}.description`, t.description == null ? undefined : wordsProblem(t.description, MAX_DESCRIPTION, false)],
    ]),
  ]);
  if (input.texts && new Set(input.texts.map((t) => t.language)).size !== input.texts.length)
    errors.push({ field: 'texts', message: 'names each language once' });
  if (input.parentId) {
    const parent = await tx.db.helpCollection.findFirst({ where: { id: input.parentId, appModeId }, select: { parentId: true } });
    if (!parent || input.parentId === self) errors.push({ field: 'parentId', message: 'must be a collection of this app' });
    else if (parent.parentId) errors.push({ field: 'parentId', message: 'is a section: collections nest one level' });
    else if (self && (await tx.db.helpCollection.count({ where: { parentId: self } })))
      errors.push({ field: 'parentId', message: 'this collection has sections of its own: collections nest one level' });
  }
  if (errors.length) throw invalid(errors);
}

async function writeTexts(tx: TxCtx, collectionId: string, texts: CollectionText[] | undefined) {
  for (const t of texts ?? []) {
    const data = { name: t.name.trim(), description: t.description?.trim() ?? '' };
    await tx.db.helpCollectionText.upsert({
      where: { collectionId_language: { collectionId, language: t.language } },
      create: { collectionId, language: t.language, ...data },
      update: data,
    });
  }
}

export async function createHelpCollection(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  input: CollectionInput & { slug: string; texts: CollectionText[] },
): Promise<HelpCollection> {
  if (!input.texts.length) throw invalid([{ field: 'texts', message: 'must name the collection in at least one language' }]);
  try {
    return await transaction(ctx, async (tx) => {
      await check(tx, appModeId, input, null);
      const now = tx.clock.now();
      const last = await tx.db.helpCollection.aggregate({
        where: { appModeId, parentId: input.parentId ?? null },
        _max: { position: true },
      });
      const made = await tx.db.helpCollection.create({
        data: {
          id: randomUUID(),
          appModeId,
          slug: input.slug,
          parentId: input.parentId ?? null,
          position: (last._max.position ?? -1) + 1,
          createdAt: now,
          updatedAt: now,
        },
      });
      await writeTexts(tx, made.id, input.texts);
      return made;
    });
  } catch (err) {
    throw isUniqueViolation(err) ? slugTaken('collection') : err;
  }
}

export async function changeHelpCollection(ctx: Ctx<StaffCaller>, id: string, input: CollectionInput): Promise<HelpCollection> {
  try {
    return await transaction(ctx, async (tx) => {
      const current = await tx.db.helpCollection.findUnique({ where: { id } });
      if (!current) throw notFound('No such collection.');
      await check(tx, current.appModeId, input, id);
      await writeTexts(tx, id, input.texts);
      return tx.db.helpCollection.update({
        where: { id },
        data: { slug: input.slug, ...(input.parentId !== undefined ? { parentId: input.parentId } : {}), updatedAt: tx.clock.now() },
      });
    });
  } catch (err) {
    throw isUniqueViolation(err) ? slugTaken('collection') : err;
  }
}

/** Removes a collection and its sections; their articles stay, in no collection. */
export async function removeHelpCollection(ctx: Ctx<StaffCaller>, id: string): Promise<void> {
  const { count } = await ctx.db.helpCollection.deleteMany({ where: { id } });
  if (!count) throw notFound('No such collection.');
}

/** Orders the collections of an app-mode (or the sections of one collection): `ids` first to last. */
export async function orderHelpCollections(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  parentId: string | null,
  ids: string[],
): Promise<HelpCollection[]> {
  return transaction(ctx, async (tx) => {
    const siblings = await tx.db.helpCollection.findMany({ where: { appModeId, parentId }, select: { id: true } });
    const errors = problems(
      ids.map((id, i) => [
        `ids.${i}`,
        siblings.some((s) => s.id === id) ? (ids.indexOf(id) !== i ? 'is named twice' : undefined) : 'is not one of these collections',
      ]),
    );
    if (errors.length) throw invalid(errors);
    for (const [position, id] of ids.entries()) await tx.db.helpCollection.update({ where: { id }, data: { position } });
    return tx.db.helpCollection.findMany({ where: { appModeId, parentId }, orderBy: [{ position: 'asc' }, { slug: 'asc' }] });
  });
}
