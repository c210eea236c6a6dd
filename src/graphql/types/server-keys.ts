import { asStaff } from '../context.js';
import { serverKeyHint } from '../../domain/apps/credentials.js';
import { createServerKey, revokeServerKey } from '../../domain/apps/server-keys.js';
import { builder, connectionType } from '../builder.js';

// Server keys: staff see hints, make a key (shown once) and revoke one.

const ServerKey = builder.prismaObject('ServerKey', {
  fields: (t) => ({
    id: t.exposeID('id'),
    hint: t.exposeString('hint', { description: 'The prefix and last four characters, to tell keys apart.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const ServerKeyConnection = connectionType(ServerKey, 'ServerKey');

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
    authScopes: (_root, { appModeId }) => ({ manage_keys: { appModeId } }),
    resolve: (_root, { appModeId }, ctx) => createServerKey(asStaff(ctx), appModeId),
  }),
);

builder.mutationField('revokeServerKey', (t) =>
  t.prismaField({
    type: 'ServerKey',
    description: 'Revokes a server key at once; revoking twice is harmless.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_keys: { serverKeyId: id } }),
    resolve: async (query, _root, { id }, ctx) => {
      await revokeServerKey(asStaff(ctx), { id });
      return ctx.svc.db.serverKey.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
