import { serverKeyHint } from '../../domain/apps/credentials.js';
import { createServerKey, revokeServerKey } from '../../domain/apps/server-keys.js';
import { requireRoleForApp } from '../../domain/staff/app-access.js';
import { builder } from '../builder.js';
import { viewerOf } from '../context.js';

// Server keys: staff see hints, make a key (shown once) and revoke one.

builder.prismaObject('ServerKey', {
  fields: (t) => ({
    id: t.exposeID('id'),
    hint: t.exposeString('hint', { description: 'The prefix and last four characters, to tell keys apart.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

const NewServerKey = builder.objectRef<{ id: string; serverKey: string }>('NewServerKey').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    serverKey: t.exposeString('serverKey', { description: 'The key itself, shown this once: only its hash is kept.' }),
    hint: t.string({ resolve: (k) => serverKeyHint(k.serverKey) }),
  }),
});

builder.mutationField('createServerKey', (t) =>
  t.field({
    type: NewServerKey,
    args: { appModeId: t.arg.id({ required: true }) },
    resolve: async (_root, { appModeId }, ctx) => {
      await requireRoleForApp(ctx.svc, viewerOf(ctx).id, { appModeId }, 'manage_keys');
      return createServerKey(ctx.svc, appModeId);
    },
  }),
);

builder.mutationField('revokeServerKey', (t) =>
  t.prismaField({
    type: 'ServerKey',
    description: 'Revokes a server key at once; revoking twice is harmless.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      await requireRoleForApp(ctx.svc, viewerOf(ctx).id, { serverKeyId: id }, 'manage_keys');
      await revokeServerKey(ctx.svc, { id });
      return ctx.svc.db.serverKey.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
