import { emailSendingIn, liveEmailSending, PROGRESS_EVERY_MS, type SendingProgressEvent } from '../../domain/email/progress.js';
import { emailStatistics, complaintRate, COMPLAINT_WINDOW_DAYS, type EmailStatistics } from '../../domain/email/statistics.js';
import { countEmailAudience, MAX_TESTS_AN_HOUR, MAX_VERSIONS, sendEmailMessage, sendTestEmail } from '../../domain/email/sending.js';
import { stopEmailSending } from '../../domain/email/stop.js';
import { suppressAddress, unsuppressAddress, normalAddress } from '../../domain/email/suppression.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';
import { liveFor } from '../subscription-access.js';
import { EmailMessageRef } from './email.js';
import { StaffUserRef } from './staff.js';
import { staffUserById } from './teams.js';
import { SendAudienceInput, sendAudienceOf } from './send-audience.js';

// Sending emails on the staff API: to an audience or a test copy to a team member (owners and admins:
// manage_settings), stopping a sending, what each sending and each email came to, the app-mode's
// complaint rate and its suppression list (docs/areas/email.md).

const SkipCount = builder.objectRef<{ reason: string; count: number }>('EmailSkipCount').implement({
  fields: (t) => ({
    reason: t.exposeString('reason', {
      description: 'suppressed, topic_closed (archived or no longer by email), all_off, unsubscribed, no_consent, or stopped.',
    }),
    count: t.exposeInt('count'),
  }),
});

const Statistics = builder.objectRef<EmailStatistics>('EmailStatistics').implement({
  description: 'What the emails came to (test copies aside). Opens and clicks by machines (scanners, image proxies) are apart.',
  fields: (t) => ({
    sent: t.exposeInt('sent'),
    skipped: t.field({ type: [SkipCount], resolve: (s) => s.skipped }),
    failed: t.exposeInt('failed', { description: 'Refused for good by the mail server, or put off five times.' }),
    pending: t.exposeInt('pending', { description: 'Not answered yet (being sent, or put off and to be tried again).' }),
    opened: t.exposeInt('opened', { description: 'Emails a person opened.' }),
    machineOpenedOnly: t.exposeInt('machineOpenedOnly', { description: 'Emails only a machine opened (an image proxy at delivery).' }),
    clicked: t.exposeInt('clicked', { description: 'Emails with a link a person clicked.' }),
    machineClickedOnly: t.exposeInt('machineClickedOnly', { description: 'Emails whose links only a machine followed (a scanner).' }),
    unsubscribed: t.exposeInt('unsubscribed'),
    bounced: t.exposeInt('bounced', { description: 'Bounced for good (a hard bounce): the address is suppressed.' }),
    softBounced: t.exposeInt('softBounced', { description: 'With a soft bounce told: counted, nothing suppressed.' }),
    delivered: t.exposeInt('delivered', { description: 'The mail provider said it delivered them (its email events).' }),
    complained: t.exposeInt('complained', { description: 'Marked as spam by the person.' }),
  }),
});

const EmailSending = builder.prismaObject('EmailVersion', {
  name: 'EmailSending',
  description: 'One sending of an email (to an audience, or a test copy), with the version of the email it sent.',
  fields: (t) => ({
    id: t.exposeID('id'),
    messageId: t.exposeID('messageId'),
    number: t.exposeInt('number', { description: 'The version: 1, 2, … one more each time the email is sent.' }),
    test: t.exposeBoolean('test'),
    subject: t.exposeString('subject'),
    state: t.exposeString('state', { description: 'sending, done or stopped.' }),
    people: t.exposeInt('people', { description: 'People of the audience with an address when it began.' }),
    stopReason: t.exposeString('stopReason', { nullable: true }),
    sentBy: t.exposeString('sentBy', { nullable: true, description: 'The id of the team member who sent it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    statistics: t.field({
      type: Statistics,
      // A live answer carries what it came to, read with its state (src/domain/email/progress.ts).
      resolve: (v, _args, ctx) =>
        'statistics' in v ? (v.statistics as EmailStatistics) : emailStatistics(asStaff(ctx), { versionId: v.id }),
    }),
  }),
});

const EmailSendingConnection = connectionType(EmailSending, 'EmailSending');

const EmailSendingEventRef = builder.objectRef<SendingProgressEvent>('EmailSendingEvent').implement({
  description: 'A sending as it is now, with what it came to: replace what you show.',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Name it as `after` to resume from here.' }),
    reload: t.exposeBoolean('reload', { description: 'The first answer, or after a gap.' }),
    sending: t.field({ type: EmailSending, resolve: (e) => e.value }),
  }),
});

builder.subscriptionField('emailSendingChanged', (t) =>
  t.field({
    type: EmailSendingEventRef,
    description:
      'A sending (or test copy) as emailSendings answers it, its state and statistics, then again as it goes: after people are claimed or ' +
      'skipped, as the mail server answers, when it is done or stopped; from any server process, in order, resumable with `after`. Changes ' +
      `that come close together are answered once: the sending is read at most once every ${PROGRESS_EVERY_MS / 1000} second per sending and ` +
      'server process, for all its subscribers. Opens, clicks, bounces and complaints after it went are not told: read emailSendings again.',
    args: { id: t.arg.id({ required: true }), after: t.arg.string() },
    authScopes: (_root, { id }) => ({ read: { emailSendingId: id } }),
    subscribe: async (_root, { id, after }, ctx) => {
      const sending = await emailSendingIn(asStaff(ctx), id);
      return liveFor(ctx, { emailSendingId: id }, 'read', (signal) => liveEmailSending(asStaff(ctx), sending, { after, signal }));
    },
    resolve: (event) => event,
  }),
);

builder.objectField(EmailMessageRef, 'statistics', (t) =>
  t.field({
    type: Statistics,
    description: 'Every sending of the email together.',
    resolve: (m, _args, ctx) => emailStatistics(asStaff(ctx), { messageId: m.id }),
  }),
);

builder.queryField('emailSendings', (t) =>
  t.prismaConnection(
    {
      type: 'EmailVersion',
      cursor: 'id',
      description: "An email's sendings and test copies, the latest first.",
      args: { messageId: t.arg.id({ required: true }) },
      authScopes: (_root, { messageId }) => ({ read: { emailMessageId: messageId } }),
      resolve: (query, _root, { messageId }, ctx) =>
        ctx.svc.db.emailVersion.findMany({ ...query, where: { messageId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
    },
    EmailSendingConnection,
  ),
);

builder.mutationField('sendEmailMessage', (t) =>
  t.prismaField({
    type: 'EmailVersion',
    description: `Sends the email as it is now to the audience's people with an address, in steps, as a durable process. Skipped, and counted by reason: addresses on the suppression list; for topic mail, people who left the topic by email or turned everything off, and people without consent to offers for an offers topic. At most ${MAX_VERSIONS} sendings an email (email_version_limit).`,
    args: { id: t.arg.id({ required: true }), audience: t.arg({ type: SendAudienceInput, required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { emailMessageId: id } }),
    resolve: async (query, _root, { id, audience }, ctx) => {
      const version = await sendEmailMessage(asStaff(ctx), id, sendAudienceOf(audience));
      return ctx.svc.db.emailVersion.findUniqueOrThrow({ ...query, where: { id: version.id } });
    },
  }),
);

builder.queryField('emailAudienceCount', (t) =>
  t.int({
    description:
      "The audience's people with an address now: how many a sending to it would begin with (people who left the email's topic, turned everything off or whose address is suppressed are then skipped and counted). Refused as sendEmailMessage refuses the audience.",
    args: { appModeId: t.arg.id({ required: true }), audience: t.arg({ type: SendAudienceInput, required: true }) },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    resolve: (_root, { appModeId, audience }, ctx) => countEmailAudience(asStaff(ctx), appModeId, sendAudienceOf(audience)),
  }),
);

builder.mutationField('sendTestEmail', (t) =>
  t.prismaField({
    type: 'EmailVersion',
    description: `Sends a test copy of the email as it is now to a team member of the workspace (the caller when \`to\` is left out). It counts nothing; its unsubscribe changes nothing. At most ${MAX_TESTS_AN_HOUR} an hour an app-mode (email_test_limit).`,
    args: { id: t.arg.id({ required: true }), to: t.arg.string({ description: "A team member's address." }) },
    authScopes: (_root, { id }) => ({ manage_settings: { emailMessageId: id } }),
    resolve: async (query, _root, { id, to }, ctx) => {
      const version = await sendTestEmail(asStaff(ctx), id, to);
      return ctx.svc.db.emailVersion.findUniqueOrThrow({ ...query, where: { id: version.id } });
    },
  }),
);

builder.mutationField('stopEmailSending', (t) =>
  t.boolean({
    description: 'Stops a sending: what was sent stays, nothing more goes out. False when it had ended already.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { emailSendingId: id } }),
    resolve: (_root, { id }, ctx) => stopEmailSending(asStaff(ctx), id, `stopped by ${asStaff(ctx).caller.staffUser.name}`),
  }),
);

const ComplaintRateRef = builder.objectRef<Awaited<ReturnType<typeof complaintRate>>>('EmailComplaintRate').implement({
  description: `Emails of the last ${COMPLAINT_WINDOW_DAYS} days people marked as spam, over those sent. Keep it under 0.1%; never reach 0.3%.`,
  fields: (t) => ({
    sent: t.exposeInt('sent'),
    complained: t.exposeInt('complained'),
    rate: t.exposeFloat('rate', { description: 'complained / sent (0 to 1).' }),
    level: t.exposeString('level', { description: 'ok (under 0.1%), warning (0.1% or more) or over (0.3% or more).' }),
  }),
});

builder.queryField('emailComplaintRate', (t) =>
  t.field({
    type: ComplaintRateRef,
    args: { appModeId: t.arg.id({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    resolve: (_root, { appModeId }, ctx) => complaintRate(asStaff(ctx), appModeId),
  }),
);

const Suppression = builder.prismaObject('EmailSuppression', {
  fields: (t) => ({
    address: t.exposeString('address'),
    reason: t.exposeString('reason', { description: 'bounce, complaint or manual.' }),
    detail: t.exposeString('detail', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const SuppressionConnection = connectionType(Suppression, 'EmailSuppression');

builder.queryField('emailSuppressions', (t) =>
  t.prismaConnection(
    {
      type: 'EmailSuppression',
      cursor: 'appModeId_address',
      description: "The app-mode's suppression list, by address; `address` finds one.",
      args: { appModeId: t.arg.id({ required: true }), address: t.arg.string() },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId, address }, ctx) =>
        ctx.svc.db.emailSuppression.findMany({
          ...query,
          where: { appModeId, ...(address ? { address: normalAddress(address) } : {}) },
          orderBy: { address: 'asc' },
        }),
    },
    SuppressionConnection,
  ),
);

builder.mutationField('suppressEmailAddress', (t) =>
  t.prismaField({
    type: 'EmailSuppression',
    description: 'Puts an address on the suppression list: nothing is sent to it.',
    args: { appModeId: t.arg.id({ required: true }), address: t.arg.string({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (query, _root, { appModeId, address }, ctx) => {
      const row = await suppressAddress(asStaff(ctx), appModeId, address, 'manual');
      return ctx.svc.db.emailSuppression.findUniqueOrThrow({ ...query, where: { appModeId_address: { appModeId, address: row.address } } });
    },
  }),
);

builder.mutationField('unsuppressEmailAddress', (t) =>
  t.boolean({
    description:
      'Takes an address off the suppression list, saying why (1 to 500 characters, kept in `emailSuppressionRemovals`); false when it was not there.',
    args: {
      appModeId: t.arg.id({ required: true }),
      address: t.arg.string({ required: true }),
      reason: t.arg.string({ required: true }),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId, address, reason }, ctx) => unsuppressAddress(asStaff(ctx), appModeId, address, reason),
  }),
);

const SuppressionRemoval = builder.prismaObject('EmailSuppressionRemoval', {
  description: 'An address staff took off the suppression list.',
  fields: (t) => ({
    address: t.exposeString('address'),
    was: t.exposeString('was', { description: 'What had put it there: bounce, complaint or manual.' }),
    reason: t.exposeString('reason'),
    removedBy: t.field({
      type: StaffUserRef,
      nullable: true,
      resolve: async (r, _args, ctx) => (r.removedBy ? ((await staffUserById(ctx, r.removedBy)) ?? null) : null),
    }),
    removedAt: t.expose('removedAt', { type: 'DateTime' }),
  }),
});

builder.queryField('emailSuppressionRemovals', (t) =>
  t.prismaConnection(
    {
      type: 'EmailSuppressionRemoval',
      cursor: 'id',
      description: "Addresses taken off the app-mode's suppression list, newest first: the list's history.",
      args: { appModeId: t.arg.id({ required: true }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId }, ctx) =>
        ctx.svc.db.emailSuppressionRemoval.findMany({ ...query, where: { appModeId }, orderBy: [{ removedAt: 'desc' }, { id: 'desc' }] }),
    },
    connectionType(SuppressionRemoval, 'EmailSuppressionRemoval'),
  ),
);
