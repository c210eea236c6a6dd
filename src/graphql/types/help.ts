import { createHelpArticle, changeHelpArticle, orderHelpArticles, removeHelpArticle } from '../../domain/help/article-authoring.js';
import {
  changeHelpCollection,
  createHelpCollection,
  orderHelpCollections,
  removeHelpCollection,
} from '../../domain/help/collection-authoring.js';
import { publishHelpArticle, saveHelpDraft, unpublishHelpArticle } from '../../domain/help/drafts.js';
import { absolutePictureUrls, createHelpPicture, type NewPicture } from '../../domain/help/pictures.js';
import { articleStats, type ArticleStats } from '../../domain/help/stats.js';
import type { ContentBlock } from '../../domain/help/blocks.js';
import { PICTURE_TYPES } from '../../lib/blobs/pictures.js';
import { batchLoad } from '../batch.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';
import { JSONValue } from '../json.js';

// The help center as staff write it: collections and their sections, articles with a draft and a
// published version per language, their order and audience, pictures, and what readers did (views
// and votes by language). Every member reads; admins and owners write (manage_settings).

const HelpAudience = builder.enumType('HelpAudience', {
  values: {
    everyone: { description: 'Anyone: public routes and the help site too.' },
    signed_in: { description: 'Signed-in users only (guest routes).' },
  } as const,
});
const PictureType = builder.enumType('HelpPictureType', {
  values: PICTURE_TYPES.map((t) => t.replace('image/', '')) as ['jpeg', 'png', 'gif', 'webp'],
});

const HelpCollectionText = builder.prismaObject('HelpCollectionText', {
  fields: (t) => ({ language: t.exposeString('language'), name: t.exposeString('name'), description: t.exposeString('description') }),
});

const HelpCollection = builder.prismaObject('HelpCollection', {
  description: 'A collection of articles, or (with a parent) a section of one.',
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    slug: t.exposeString('slug', { description: 'The same in every language.' }),
    parentId: t.exposeID('parentId', { nullable: true, description: 'The collection a section is in.' }),
    position: t.exposeInt('position'),
    texts: t.relation('texts', { description: 'Its name and description, by language.', query: { orderBy: { language: 'asc' } } }),
    sections: t.relatedConnection('sections', {
      cursor: 'id',
      description: 'A collection’s sections, in order.',
      query: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const HelpArticleDraft = builder.prismaObject('HelpArticleDraft', {
  description: 'The version staff edit in one language; readers never see it until it is published.',
  fields: (t) => ({
    language: t.exposeString('language'),
    title: t.exposeString('title'),
    summary: t.exposeString('summary'),
    blocks: t.field({
      type: JSONValue,
      description: 'ContentBlocks, without formatting members.',
      resolve: (d, _args, ctx) => absolutePictureUrls(ctx.svc.config.baseUrl, d.blocks as unknown as ContentBlock[]),
    }),
    editedBy: t.exposeID('editedBy', { nullable: true, description: 'The staff user who saved it last.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const HelpArticlePublished = builder.prismaObject('HelpArticlePublished', {
  description: 'What readers see in one language: the draft as it was when published.',
  fields: (t) => ({
    language: t.exposeString('language'),
    title: t.exposeString('title'),
    summary: t.exposeString('summary'),
    blocks: t.field({
      type: JSONValue,
      resolve: (p, _args, ctx) => absolutePictureUrls(ctx.svc.config.baseUrl, p.blocks as unknown as ContentBlock[]),
    }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime' }),
    publishedBy: t.exposeID('publishedBy', { nullable: true }),
  }),
});

const HelpArticleStats = builder.objectRef<ArticleStats>('HelpArticleStats').implement({
  description: 'What readers did with an article in one language.',
  fields: (t) => ({
    language: t.exposeString('language'),
    views: t.exposeInt('views', { description: 'Reads, in the language served (counted within a second or so).' }),
    helpful: t.exposeInt('helpful', { description: 'Signed-in users who found it helpful.' }),
    notHelpful: t.exposeInt('notHelpful'),
    visitorHelpful: t.exposeInt('visitorHelpful', {
      description: 'Votes from the public routes and the help site, kept apart from users’.',
    }),
    visitorNotHelpful: t.exposeInt('visitorNotHelpful'),
  }),
});

const HelpArticle = builder.prismaObject('HelpArticle', {
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    slug: t.exposeString('slug', { description: 'The same in every language.' }),
    collectionId: t.exposeID('collectionId', { nullable: true }),
    position: t.exposeInt('position'),
    audience: t.expose('audience', { type: HelpAudience }),
    drafts: t.relatedConnection('drafts', {
      cursor: 'articleId_language',
      description: 'One per language, by language.',
      query: { orderBy: { language: 'asc' } },
    }),
    published: t.relatedConnection('published', {
      cursor: 'articleId_language',
      description: 'The languages readers see, each as published, by language.',
      query: { orderBy: { language: 'asc' } },
    }),
    stats: t.field({
      type: [HelpArticleStats],
      description: 'Views and votes by language.',
      // Every article of a page in one statement.
      resolve: (a, _args, ctx) => batchLoad(ctx, 'helpArticleStats', a.id, (ids) => articleStats(asStaff(ctx), ids)),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const HelpCollectionConnection = connectionType(HelpCollection, 'HelpCollection');
const HelpArticleConnection = connectionType(HelpArticle, 'HelpArticle');

builder.queryField('helpCollections', (t) =>
  t.prismaConnection(
    {
      type: 'HelpCollection',
      cursor: 'id',
      description: 'The collections of an app-mode in order (their sections are on each).',
      args: { appModeId: t.arg.id({ required: true }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId }, ctx) =>
        ctx.svc.db.helpCollection.findMany({
          ...query,
          where: { appModeId, parentId: null },
          orderBy: [{ position: 'asc' }, { id: 'asc' }],
        }),
    },
    HelpCollectionConnection,
  ),
);

builder.queryField('helpArticles', (t) =>
  t.prismaConnection(
    {
      type: 'HelpArticle',
      cursor: 'id',
      description: 'The articles of an app-mode, or of one collection or section, in order.',
      args: {
        appModeId: t.arg.id({ required: true }),
        collectionId: t.arg.id({ description: 'Only those in this collection or section.' }),
      },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId, collectionId }, ctx) =>
        ctx.svc.db.helpArticle.findMany({
          ...query,
          where: { appModeId, ...(collectionId ? { collectionId } : {}) },
          orderBy: [{ position: 'asc' }, { id: 'asc' }],
        }),
    },
    HelpArticleConnection,
  ),
);

builder.queryField('helpArticle', (t) =>
  t.prismaField({
    type: 'HelpArticle',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { helpArticleId: id } }),
    resolve: (query, _root, { id }, ctx) => ctx.svc.db.helpArticle.findUniqueOrThrow({ ...query, where: { id } }),
  }),
);

const CollectionTextInput = builder.inputType('HelpCollectionTextInput', {
  fields: (t) => ({ language: t.string({ required: true }), name: t.string({ required: true }), description: t.string() }),
});

const CollectionInput = builder.inputType('HelpCollectionInput', {
  description: 'Only the fields given change; texts set the languages they name.',
  fields: (t) => ({
    slug: t.string(),
    parentId: t.id({ description: 'Make it a section of this collection; null: a collection of its own.' }),
    texts: t.field({ type: [CollectionTextInput] }),
  }),
});

builder.mutationField('createHelpCollection', (t) =>
  t.prismaField({
    type: 'HelpCollection',
    description: 'A collection (or, with parentId, a section of one), last in its order.',
    args: {
      appModeId: t.arg.id({ required: true }),
      slug: t.arg.string({ required: true }),
      parentId: t.arg.id(),
      texts: t.arg({ type: [CollectionTextInput], required: true }),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (query, _root, args, ctx) => {
      const made = await createHelpCollection(asStaff(ctx), args.appModeId, {
        slug: args.slug,
        parentId: args.parentId,
        texts: args.texts,
      });
      return ctx.svc.db.helpCollection.findUniqueOrThrow({ ...query, where: { id: made.id } });
    },
  }),
);

builder.mutationField('changeHelpCollection', (t) =>
  t.prismaField({
    type: 'HelpCollection',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: CollectionInput, required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { helpCollectionId: id } }),
    resolve: async (query, _root, { id, input }, ctx) => {
      await changeHelpCollection(asStaff(ctx), id, {
        slug: input.slug ?? undefined,
        parentId: input.parentId,
        texts: input.texts ?? undefined,
      });
      return ctx.svc.db.helpCollection.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

builder.mutationField('removeHelpCollection', (t) =>
  t.boolean({
    description: 'Removes a collection and its sections; their articles stay, in no collection.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { helpCollectionId: id } }),
    resolve: async (_root, { id }, ctx) => (await removeHelpCollection(asStaff(ctx), id), true),
  }),
);

builder.mutationField('orderHelpCollections', (t) =>
  t.boolean({
    description:
      'Puts the collections of an app-mode (or the sections of parentId) in the order given; those not named keep their places (helpCollections and sections read the order).',
    args: { appModeId: t.arg.id({ required: true }), parentId: t.arg.id(), ids: t.arg.idList({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (_root, { appModeId, parentId, ids }, ctx) => (
      await orderHelpCollections(asStaff(ctx), appModeId, parentId ?? null, ids.map(String)),
      true
    ),
  }),
);

const ArticleInput = builder.inputType('HelpArticleInput', {
  description: 'Only the fields given change.',
  fields: (t) => ({
    slug: t.string(),
    collectionId: t.id({ description: 'The collection or section it is in; null: none.' }),
    audience: t.field({ type: HelpAudience, description: 'Applies at once to every published language.' }),
  }),
});

builder.mutationField('createHelpArticle', (t) =>
  t.prismaField({
    type: 'HelpArticle',
    description: 'An article with no words yet (saveHelpDraft, then publishHelpArticle), last in its collection.',
    args: {
      appModeId: t.arg.id({ required: true }),
      slug: t.arg.string({ required: true }),
      collectionId: t.arg.id(),
      audience: t.arg({ type: HelpAudience }),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (query, _root, args, ctx) => {
      const made = await createHelpArticle(asStaff(ctx), args.appModeId, {
        slug: args.slug,
        collectionId: args.collectionId,
        audience: args.audience ?? undefined,
      });
      return ctx.svc.db.helpArticle.findUniqueOrThrow({ ...query, where: { id: made.id } });
    },
  }),
);

builder.mutationField('changeHelpArticle', (t) =>
  t.prismaField({
    type: 'HelpArticle',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ArticleInput, required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { helpArticleId: id } }),
    resolve: async (query, _root, { id, input }, ctx) => {
      await changeHelpArticle(asStaff(ctx), id, {
        slug: input.slug ?? undefined,
        collectionId: input.collectionId,
        audience: input.audience ?? undefined,
      });
      return ctx.svc.db.helpArticle.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

builder.mutationField('removeHelpArticle', (t) =>
  t.boolean({
    description: 'Removes an article with every version, its views and votes.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { helpArticleId: id } }),
    resolve: async (_root, { id }, ctx) => (await removeHelpArticle(asStaff(ctx), id), true),
  }),
);

builder.mutationField('orderHelpArticles', (t) =>
  t.boolean({
    description:
      'Puts the articles of a collection or section (none: those in no collection) in the order given; those not named keep their places (helpArticles reads the order).',
    args: { appModeId: t.arg.id({ required: true }), collectionId: t.arg.id(), ids: t.arg.idList({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (_root, { appModeId, collectionId, ids }, ctx) => (
      await orderHelpArticles(asStaff(ctx), appModeId, collectionId ?? null, ids.map(String)),
      true
    ),
  }),
);

builder.mutationField('saveHelpDraft', (t) =>
  t.prismaField({
    type: 'HelpArticleDraft',
    description:
      'Sets the draft of one language (one of the app’s): title, summary and ContentBlocks (heading 1 to 3, paragraph, list, numbered_list, image, callout, link), no formatting members; at most 1,000 blocks holding at most 100,000 characters of text (refused beyond, naming `blocks`). Readers see nothing of it until it is published.',
    args: {
      articleId: t.arg.id({ required: true }),
      language: t.arg.string({ required: true }),
      title: t.arg.string({ required: true }),
      summary: t.arg.string(),
      blocks: t.arg({ type: JSONValue, required: true }),
    },
    authScopes: (_root, { articleId }) => ({ manage_settings: { helpArticleId: articleId } }),
    resolve: async (query, _root, args, ctx) => {
      await saveHelpDraft(asStaff(ctx), args.articleId, args.language, { title: args.title, summary: args.summary, blocks: args.blocks });
      return ctx.svc.db.helpArticleDraft.findUniqueOrThrow({
        ...query,
        where: { articleId_language: { articleId: args.articleId, language: args.language } },
      });
    },
  }),
);

builder.mutationField('publishHelpArticle', (t) =>
  t.prismaField({
    type: 'HelpArticlePublished',
    description: 'Publishes the draft of one language as it is now; the version readers saw until then is replaced in the same moment.',
    args: { articleId: t.arg.id({ required: true }), language: t.arg.string({ required: true }) },
    authScopes: (_root, { articleId }) => ({ manage_settings: { helpArticleId: articleId } }),
    resolve: async (query, _root, { articleId, language }, ctx) => {
      await publishHelpArticle(asStaff(ctx), articleId, language);
      return ctx.svc.db.helpArticlePublished.findUniqueOrThrow({ ...query, where: { articleId_language: { articleId, language } } });
    },
  }),
);

builder.mutationField('unpublishHelpArticle', (t) =>
  t.boolean({
    description:
      'Readers no longer see the article in this language (the default language’s version, if published, is served instead); the draft stays.',
    args: { articleId: t.arg.id({ required: true }), language: t.arg.string({ required: true }) },
    authScopes: (_root, { articleId }) => ({ manage_settings: { helpArticleId: articleId } }),
    resolve: async (_root, { articleId, language }, ctx) => (await unpublishHelpArticle(asStaff(ctx), articleId, language), true),
  }),
);

const HelpPictureUpload = builder.objectRef<NewPicture>('HelpPictureUpload').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url', { description: 'The picture’s address: name it as an image block’s imageUrl once the bytes are uploaded.' }),
    uploadUrl: t.string({ description: 'Send the bytes here with uploadMethod and uploadHeaders.', resolve: (p) => p.upload.url }),
    uploadMethod: t.string({ resolve: (p) => p.upload.method }),
    uploadHeaders: t.field({ type: JSONValue, description: 'Headers the upload must carry as given.', resolve: (p) => p.upload.headers }),
    uploadExpiresAt: t.field({ type: 'DateTime', resolve: (p) => p.upload.expiresAt }),
  }),
});

builder.mutationField('createHelpPicture', (t) =>
  t.field({
    type: HelpPictureUpload,
    description: 'Where to upload a picture for articles (JPEG, PNG, GIF or WebP, at most 10 MiB), checked from its bytes.',
    args: {
      appModeId: t.arg.id({ required: true }),
      type: t.arg({ type: PictureType, required: true }),
      size: t.arg.int({ required: true }),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId, type, size }, ctx) => createHelpPicture(asStaff(ctx), appModeId, { contentType: `image/${type}`, size }),
  }),
);
