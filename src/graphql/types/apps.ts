import { asStaff } from '../context.js';
import { createApp, renameApp, type ModeCredentials } from '../../domain/apps/create-app.js';
import { builder, connectionType, Mode } from '../builder.js';
import { ServerKeyConnection } from './server-keys.js';

// Apps and their two modes. An app-mode shows its settings and key hints; its identity and inbound
// secrets are never exposed after createApp showed them once.

const App = builder.prismaObject('App', {
  fields: (t) => {
    // Both modes come from one planned `modes` selection; each field picks its own. Every app is
    // made with both.
    const modeField = (mode: 'live' | 'test') =>
      t.field({
        type: AppMode,
        select: (_args, _ctx, nestedSelection) => ({ modes: nestedSelection({ orderBy: { mode: 'asc' } }) }),
        resolve: (app) => app.modes.find((m) => m.mode === mode)!,
      });
    return {
      id: t.exposeID('id'),
      name: t.exposeString('name'),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
      workspace: t.relation('workspace'),
      live: modeField('live'),
      test: modeField('test'),
    };
  },
});

export const AppConnection = connectionType(App, 'App');

export const AppMode = builder.prismaObject('AppMode', {
  fields: (t) => ({
    id: t.exposeID('id'),
    mode: t.expose('mode', { type: Mode }),
    appKey: t.exposeString('appKey', { description: 'app_… or app_test_…: public, sent by the SDKs.' }),
    app: t.relation('app'),
    webOrigins: t.exposeStringList('webOrigins'),
    unverifiedSignin: t.exposeBoolean('unverifiedSignin'),
    strictData: t.exposeBoolean('strictData'),
    archived: t.exposeBoolean('archived'),
    switchedOff: t.exposeBoolean('switchedOff'),
    messengerOn: t.exposeBoolean('messengerOn'),
    helpOn: t.exposeBoolean('helpOn'),
    inappOn: t.exposeBoolean('inappOn'),
    languages: t.exposeStringList('languages'),
    defaultLanguage: t.exposeString('defaultLanguage'),
    currency: t.exposeString('currency'),
    brandName: t.exposeString('brandName'),
    brandColor: t.exposeString('brandColor'),
    brandLogoUrl: t.exposeString('brandLogoUrl', { nullable: true }),
    linkBase: t.exposeString('linkBase', { nullable: true }),
    appStoreUrl: t.exposeString('appStoreUrl', { nullable: true }),
    playStoreUrl: t.exposeString('playStoreUrl', { nullable: true }),
    homeOrigin: t.exposeString('homeOrigin', { nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    serverKeys: t.relatedConnection(
      'serverKeys',
      { cursor: 'id', description: 'Newest first.', query: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] } },
      ServerKeyConnection,
    ),
  }),
});

const Credentials = builder.objectRef<ModeCredentials>('ModeCredentials').implement({
  description: "One mode's credentials as made: shown once, then only the app key and the server key's hint.",
  fields: (t) => ({
    appKey: t.exposeString('app_key'),
    serverKey: t.exposeString('server_key'),
    identitySecret: t.exposeString('identity_secret'),
    inboundSecret: t.exposeString('inbound_secret'),
  }),
});

const CreatedApp = builder.objectRef<{ appId: string; live: ModeCredentials; test: ModeCredentials }>('CreatedApp').implement({
  fields: (t) => ({
    app: t.prismaField({
      type: 'App',
      resolve: (query, created, _args, ctx) => ctx.svc.db.app.findUniqueOrThrow({ ...query, where: { id: created.appId } }),
    }),
    live: t.expose('live', { type: Credentials }),
    test: t.expose('test', { type: Credentials }),
  }),
});

builder.queryField('app', (t) =>
  t.prismaField({
    type: 'App',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { appId: id } }),
    resolve: (query, _root, { id }, ctx) => ctx.svc.db.app.findUniqueOrThrow({ ...query, where: { id } }),
  }),
);

builder.mutationField('createApp', (t) =>
  t.field({
    type: CreatedApp,
    args: { workspaceId: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    authScopes: (_root, { workspaceId }) => ({ manage_settings: { workspaceId } }),
    resolve: (_root, args, ctx) => createApp(asStaff(ctx), args),
  }),
);

builder.mutationField('renameApp', (t) =>
  t.prismaField({
    type: 'App',
    description: 'Renames the app, both modes (1 to 100 characters, refused naming `name`); the brand names people see stay as they are.',
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { appId: id } }),
    resolve: async (query, _root, { id, name }, ctx) => {
      await renameApp(asStaff(ctx), id, name);
      return ctx.svc.db.app.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
