import { inboxAddress, replyAddress, replyAddressKey } from '../../domain/email-in/addresses.js';
import { DEFAULT_KEEP_HOURS, rollInboundSecret } from '../../domain/email-in/roll-secret.js';
import { builder } from '../builder.js';
import { asStaff } from '../context.js';

// Inbound email on the staff side: where people's mail comes in (an app-mode's inbox address, a
// conversation's reply address), the email a message came as, and rolling the inbound secret.

builder.prismaObjectFields('AppMode', (t) => ({
  inboxAddress: t.string({
    description:
      "Mail from a known person's address to this starts a conversation (the deployment-wide inbound route); on the app's own route, any address that is not a reply address is its inbox.",
    select: { appKey: true },
    resolve: (mode, _args, ctx) => inboxAddress(ctx.svc.config.inboundDomain, mode.appKey),
  }),
}));

builder.prismaObjectFields('Conversation', (t) => ({
  replyAddress: t.string({
    description:
      "Mail to this from the conversation's person joins the conversation as their message (signed: it names this conversation alone).",
    select: { id: true, appModeId: true },
    resolve: (c, _args, ctx) => replyAddress(replyAddressKey(ctx.svc), ctx.svc.config.inboundDomain, c.appModeId, c.id),
  }),
}));

const InboundEmailRef = builder.prismaObject('InboundEmail', {
  description: 'An email as it came, whose reply became a message of the conversation.',
  fields: (t) => ({
    id: t.exposeID('id'),
    from: t.exposeString('fromAddress'),
    to: t.exposeStringList('toAddresses'),
    subject: t.exposeString('subject', { nullable: true }),
    text: t.exposeString('text', { description: 'The whole plain-text body, quoted earlier email and signature included.' }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime' }),
  }),
});

const RolledInboundSecret = builder.objectRef<{ inboundSecret: string; previousValidUntil: Date | null }>('RolledInboundSecret').implement({
  description: 'The new inbound secret, shown this once.',
  fields: (t) => ({
    inboundSecret: t.exposeString('inboundSecret'),
    previousValidUntil: t.expose('previousValidUntil', {
      type: 'DateTime',
      nullable: true,
      description: 'Until when the secret before still verifies hook posts; null: it no longer does.',
    }),
  }),
});

builder.mutationField('rollInboundSecret', (t) =>
  t.field({
    type: RolledInboundSecret,
    description: `A new inbound secret for the app-mode's email hooks, shown once; the one before keeps verifying for keepPreviousHours (default ${DEFAULT_KEEP_HOURS}, 0 to 168).`,
    args: { appModeId: t.arg.id({ required: true }), keepPreviousHours: t.arg.int() },
    authScopes: (_root, { appModeId }) => ({ manage_keys: { appModeId } }),
    resolve: (_root, { appModeId, keepPreviousHours }, ctx) =>
      rollInboundSecret(asStaff(ctx), appModeId, keepPreviousHours ?? DEFAULT_KEEP_HOURS),
  }),
);

builder.queryField('conversationPartEmail', (t) =>
  t.prismaField({
    type: 'InboundEmail',
    nullable: true,
    description:
      'The email a message of the conversation came as, whole (null for a message that did not come by email): read when staff open it, not with the list.',
    args: { conversationId: t.arg.id({ required: true }), partId: t.arg.id({ required: true }) },
    authScopes: (_root, { conversationId }) => ({ read: { conversationId } }),
    resolve: (query, _root, { conversationId, partId }, ctx) =>
      ctx.svc.db.inboundEmail.findFirst({ ...query, where: { conversationId, partId } }),
  }),
);

const InboundEmailSettings = builder
  .objectRef<{ inboxAddress: string; replyDomain: string; previousSecretUntil: Date | null }>('InboundEmailSettings')
  .implement({
    description: "Where the app-mode's mail comes in, and whether its inbound secret before the last roll still verifies.",
    fields: (t) => ({
      inboxAddress: t.exposeString('inboxAddress'),
      replyDomain: t.exposeString('replyDomain', { description: 'The domain of conversations’ reply addresses (INBOUND_EMAIL_DOMAIN).' }),
      previousSecretUntil: t.expose('previousSecretUntil', {
        type: 'DateTime',
        nullable: true,
        description: 'Until when the secret before the last roll still verifies hook posts; null: none does.',
      }),
    }),
  });

builder.queryField('inboundEmailSettings', (t) =>
  t.field({
    type: InboundEmailSettings,
    args: { appModeId: t.arg.id({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    resolve: async (_root, { appModeId }, ctx) => {
      const mode = await ctx.svc.db.appMode.findUniqueOrThrow({
        where: { id: appModeId },
        select: { appKey: true, previousInboundUntil: true },
      });
      const until = mode.previousInboundUntil && mode.previousInboundUntil > ctx.svc.clock.now() ? mode.previousInboundUntil : null;
      return {
        inboxAddress: inboxAddress(ctx.svc.config.inboundDomain, mode.appKey),
        replyDomain: ctx.svc.config.inboundDomain,
        previousSecretUntil: until,
      };
    },
  }),
);
