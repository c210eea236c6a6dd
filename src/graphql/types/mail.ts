import type { MailHeader } from '../../domain/mail/message.js';
import { builder, connectionType } from '../builder.js';

// The mail a workspace was sent, for its owners: the whole message when there is no SMTP server
// (the table is the mailbox), a delivery record without body when it went out by SMTP.

const OutgoingMailVia = builder.enumType('OutgoingMailVia', {
  description: 'kept: no SMTP server is set, the message is kept here whole. smtp: handed to the SMTP server; only the record is kept.',
  values: ['kept', 'smtp'] as const,
});

const MailHeaderObject = builder.objectRef<MailHeader>('MailHeader').implement({
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeString('value') }),
});

const OutgoingMail = builder.prismaObject('OutgoingMail', {
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind'),
    via: t.expose('via', { type: OutgoingMailVia }),
    from: t.exposeString('fromAddress'),
    to: t.stringList({
      select: { recipients: { select: { email: true }, orderBy: { position: 'asc' } } },
      resolve: (mail) => mail.recipients.map((r) => r.email),
    }),
    subject: t.exposeString('subject'),
    text: t.exposeString('text', { nullable: true, description: 'Kept only when via is kept.' }),
    html: t.exposeString('html', { nullable: true, description: 'Kept only when via is kept (and the mail had one).' }),
    headers: t.field({
      type: [MailHeaderObject],
      description: 'The extra headers sent (List-Unsubscribe, …); kept only when via is kept.',
      select: { headers: true },
      resolve: (mail) => (mail.headers ?? []) as unknown as MailHeader[],
    }),
    messageId: t.exposeString('messageId'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
const OutgoingMailConnection = connectionType(OutgoingMail, 'OutgoingMail');

builder.queryField('outgoingMail', (t) =>
  t.prismaConnection(
    {
      type: 'OutgoingMail',
      cursor: 'id',
      description: 'Mail the service sent for the workspace, newest first (owners).',
      args: { workspaceId: t.arg.id({ required: true }) },
      authScopes: (_root, { workspaceId }) => ({ manage_members: { workspaceId } }),
      resolve: (query, _root, { workspaceId }, ctx) =>
        ctx.svc.db.outgoingMail.findMany({ ...query, where: { workspaceId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
    },
    OutgoingMailConnection,
  ),
);
