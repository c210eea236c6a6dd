import {
  changeEmailMessage,
  createEmailMessage,
  deleteEmailMessage,
  MAX_EMAIL_MESSAGES,
  MAX_FROM_NAME,
  MAX_PREHEADER,
  MAX_SUBJECT,
  type EmailMessageInput,
} from '../../domain/email/messages.js';
import { previewEmail, SAMPLE_TO, type EmailPreview } from '../../domain/email/preview.js';
import { batchLoad } from '../batch.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';
import { JSONValue } from '../json.js';

// Emails on the staff API: owners and admins compose them (manage_settings); every member reads
// them. Sending, statistics and test copies come with the email sender (docs/areas/email.md).

export const EmailMessageRef = builder.prismaObject('EmailMessage', {
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    name: t.exposeString('name'),
    subject: t.exposeString('subject'),
    preheader: t.exposeString('preheader', { description: 'The preview text mail clients show after the subject.' }),
    blocks: t.field({ type: JSONValue, description: 'The body: content blocks, as the help center’s.', resolve: (m) => m.blocks }),
    topic: t.string({
      nullable: true,
      description: "The topic's key; null for transactional mail (no unsubscribe).",
      resolve: (m, _args, ctx) =>
        m.topicId === null
          ? null
          : batchLoad(ctx, 'emailTopicKeys', m.topicId, async (ids) => {
              const found = await ctx.svc.db.preferenceTopic.findMany({ where: { id: { in: [...ids] } }, select: { id: true, key: true } });
              return new Map(found.map((t) => [t.id, t.key]));
            }),
    }),
    fromName: t.exposeString('fromName', { nullable: true }),
    fromAddress: t.exposeString('fromAddress', { nullable: true }),
    replyTo: t.exposeString('replyTo', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const EmailMessageConnection = connectionType(EmailMessageRef, 'EmailMessage');

builder.queryField('emailMessages', (t) =>
  t.prismaConnection(
    {
      type: 'EmailMessage',
      cursor: 'id',
      description: "The app-mode's emails, newest first.",
      args: { appModeId: t.arg.id({ required: true }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId }, ctx) =>
        ctx.svc.db.emailMessage.findMany({ ...query, where: { appModeId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
    },
    EmailMessageConnection,
  ),
);

builder.queryField('emailMessage', (t) =>
  t.prismaField({
    type: 'EmailMessage',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { emailMessageId: id } }),
    resolve: (query, _root, { id }, ctx) => ctx.svc.db.emailMessage.findUniqueOrThrow({ ...query, where: { id } }),
  }),
);

const EmailMessageInputRef = builder.inputType('EmailMessageInput', {
  description: 'Only the fields given change; null clears the topic (transactional mail), the sender’s name, address and reply-to.',
  fields: (t) => ({
    name: t.string({ description: 'How staff find it; the subject when left out.' }),
    subject: t.string({ description: `One line, 1 to ${MAX_SUBJECT} characters; required to create.` }),
    preheader: t.string({ description: `One line, at most ${MAX_PREHEADER} characters.` }),
    blocks: t.field({
      type: JSONValue,
      description:
        'The body: content blocks (the help center’s, without formatting members; links and pictures https); required to create.',
    }),
    topic: t.string({ description: "A topic's key that goes by email; null: transactional mail, which carries no unsubscribe." }),
    fromName: t.string({ description: `The sender's name, one line, at most ${MAX_FROM_NAME} characters.` }),
    fromAddress: t.string({ description: "The sender's address; the deployment's when null." }),
    replyTo: t.string({ description: 'Where replies go; the sender when null.' }),
  }),
});

builder.mutationField('createEmailMessage', (t) =>
  t.prismaField({
    type: 'EmailMessage',
    description: `A new email (at most ${MAX_EMAIL_MESSAGES} an app-mode: email_limit). Refusals name each bad field.`,
    args: { appModeId: t.arg.id({ required: true }), input: t.arg({ type: EmailMessageInputRef, required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (query, _root, { appModeId, input }, ctx) =>
      ctx.svc.db.emailMessage.findUniqueOrThrow({
        ...query,
        where: { id: (await createEmailMessage(asStaff(ctx), appModeId, input as EmailMessageInput)).id },
      }),
  }),
);

builder.mutationField('changeEmailMessage', (t) =>
  t.prismaField({
    type: 'EmailMessage',
    description: 'Changes an email; every email already sent keeps its own version (its links lead where they did).',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: EmailMessageInputRef, required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { emailMessageId: id } }),
    resolve: async (query, _root, { id, input }, ctx) =>
      ctx.svc.db.emailMessage.findUniqueOrThrow({
        ...query,
        where: { id: (await changeEmailMessage(asStaff(ctx), id, input as EmailMessageInput)).id },
      }),
  }),
);

builder.mutationField('deleteEmailMessage', (t) =>
  t.boolean({
    description: 'Deletes an email never sent (email_sent otherwise: its emails’ links lead through it).',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { emailMessageId: id } }),
    resolve: async (_root, { id }, ctx) => {
      await deleteEmailMessage(asStaff(ctx), id);
      return true;
    },
  }),
);

const EmailPreviewAddress = builder.objectRef<{ url: string; expiresAt: Date }>('EmailPreviewAddress').implement({
  description: "Where an email's preview is a page: an address of this service, signed, good for a few minutes.",
  fields: (t) => ({
    url: t.exposeString('url', {
      description:
        'GET answers the HTML (`GET /public/v1/email-previews/{token}`), with a policy of its own (inline styles and https pictures, no script, sandboxed). The address is the credential: do not share or log it.',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'After this the address is refused (403 address_expired).' }),
  }),
});

const EmailPreviewRef = builder.objectRef<EmailPreview>('EmailPreview').implement({
  description:
    'An email as a sending would mail it now, rendered as a sending renders it. Tracked links lead where they were written, the open ' +
    "pixel is an inline picture (nothing is fetched or counted) and the unsubscribe and preference centre's links stand in for the person's.",
  fields: (t) => ({
    subject: t.exposeString('subject'),
    preheader: t.exposeString('preheader'),
    html: t.exposeString('html', { description: 'The whole HTML document: show it in a sandboxed frame, never in your own page.' }),
    text: t.exposeString('text', { description: 'The plain-text alternative.' }),
    from: t.exposeString('from', { description: "The From a sending writes: the email's sender, else the service's." }),
    replyTo: t.exposeString('replyTo', { nullable: true }),
    to: t.exposeString('to', {
      nullable: true,
      description: `The person's address; null when they have none (no sending reaches them); ${SAMPLE_TO} without a person.`,
    }),
    address: t.field({
      type: EmailPreviewAddress,
      description: 'The HTML as a page of this service, to frame (sandboxed): the email as saved when it is opened.',
      resolve: (p) => p.address,
    }),
    skipped: t.exposeString('skipped', {
      nullable: true,
      description:
        'Why a sending now would skip the person (suppressed, topic_closed, all_off, unsubscribed, no_consent); null: it would go.',
    }),
  }),
});

builder.queryField('emailPreview', (t) =>
  t.field({
    type: EmailPreviewRef,
    description:
      "The email as saved, as a sending would mail it now: to a person of the email's app-mode (`contactId`, Contact.id; another's is " +
      'not_found) or to a sample address. Refused naming `topic` when its topic no longer goes by email, as a sending is.',
    args: { emailMessageId: t.arg.id({ required: true }), contactId: t.arg.id() },
    authScopes: (_root, { emailMessageId }) => ({ read: { emailMessageId } }),
    resolve: (_root, { emailMessageId, contactId }, ctx) => previewEmail(asStaff(ctx), emailMessageId, contactId),
  }),
);
