import { COUNT_EXAMINED, countAudience, PEOPLE_COUNTED, type AudienceCount } from '../../domain/audiences/count.js';
import { CONTENT_KINDS } from '../../domain/inapp/content.js';
import { MAX_DECLARED_LINKS, MAX_LINK_SETS } from '../../domain/inapp/links.js';
import type { MessageInput, Variant } from '../../domain/inapp/message-input.js';
import { changeMessage, createMessage, deleteMessage, messageIn, setMessageState } from '../../domain/inapp/messages.js';
import { setInAppSettings } from '../../domain/inapp/settings.js';
import {
  liveCounts,
  liveStats,
  statsOfMany,
  type Count,
  type CountsEvent,
  type MessageStats,
  type StatsEvent,
  type VariantStats,
} from '../../domain/inapp/stats.js';
import { markTestPhone, sendTestCopy, unmarkTestPhone } from '../../domain/inapp/test-phones.js';
import { unknownWords } from '../../domain/inapp/known-words.js';
import { batchLoad } from '../batch.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';
import { JSONValue } from '../json.js';
import { liveFor } from '../subscription-access.js';

// In-app messages on the staff API. Owners and admins write messages (content as the app reads it,
// as JSON; audience rules as JSON, src/domain/audiences), move them through their states, mark test
// phones and send test copies (manage_settings); every member reads them with their statistics,
// live too.

const InAppKind = builder.enumType('InAppKind', { values: Object.keys(CONTENT_KINDS) as (keyof typeof CONTENT_KINDS)[] });
const InAppState = builder.enumType('InAppState', {
  values: {
    draft: { description: 'Being written: answered to no one.' },
    live: { description: 'Answered at check-in to its audience, within its schedule and window.' },
    paused: { description: 'Answered to no one for now; may go live again.' },
    ended: { description: 'Answered to no one, for good; its receipts and statistics stay.' },
  } as const,
});
const InAppShow = builder.enumType('InAppShow', {
  values: {
    once: { description: 'Answered (once a session) until the person has seen it.' },
    until_dismissed: { description: 'Answered again in each new session until the person dismisses or completes it.' },
    until_completed: { description: 'Answered again in each new session until the person completes it.' },
  } as const,
});

const InAppVariant = builder.objectRef<Variant>('InAppVariant').implement({
  fields: (t) => ({
    key: t.exposeString('key', { description: 'What check-ins and receipts name it by.' }),
    weight: t.exposeInt('weight', { description: 'Its share of the people, beside the other variants and the control group.' }),
    content: t.field({
      type: JSONValue,
      description: "The content by the message's kind, as the app reads it.",
      resolve: (v) => v.content,
    }),
    unknownWords: t.stringList({
      description: 'Paths of enumerated words in the content this service does not know: apps that do not know them draw the default.',
      resolve: (v) => unknownWords(v.content),
    }),
  }),
});

const InAppWindow = builder.objectRef<{ days: number[]; from: string; to: string }>('InAppSendingWindow').implement({
  description: "Days and hours in the person's own time zone.",
  fields: (t) => ({
    days: t.exposeIntList('days', { description: 'Sunday 0 to Saturday 6.' }),
    from: t.exposeString('from', { description: 'HH:MM, included.' }),
    to: t.exposeString('to', { description: 'HH:MM, not included (24:00 for the end of the day).' }),
  }),
});

const InAppQuiet = builder.objectRef<{ from: string; to: string }>('InAppQuietHours').implement({
  description: "Hours in the person's own time zone when the message is not answered; may wrap midnight.",
  fields: (t) => ({ from: t.exposeString('from'), to: t.exposeString('to') }),
});

const InAppVariantStats = builder.objectRef<VariantStats>('InAppVariantStats').implement({
  description: 'People counted once each; test copies never.',
  fields: (t) => ({
    variant: t.exposeString('variant'),
    control: t.exposeBoolean('control', { description: 'The control group: never shown; `sent` counts the people who would have been.' }),
    sent: t.exposeInt('sent'),
    seen: t.exposeInt('seen'),
    clicked: t.exposeInt('clicked'),
    dismissed: t.exposeInt('dismissed'),
    completed: t.exposeInt('completed'),
    goalReached: t.exposeInt('goalReached'),
  }),
});

const InAppDayStats = builder.objectRef<MessageStats['days'][number]>('InAppDayStats').implement({
  fields: (t) => ({
    day: t.exposeString('day', { description: 'YYYY-MM-DD (UTC): the day each person did it.' }),
    variant: t.exposeString('variant'),
    control: t.exposeBoolean('control'),
    sent: t.exposeInt('sent'),
    seen: t.exposeInt('seen'),
    clicked: t.exposeInt('clicked'),
    dismissed: t.exposeInt('dismissed'),
    completed: t.exposeInt('completed'),
    goalReached: t.exposeInt('goalReached'),
  }),
});

const InAppStats = builder.objectRef<MessageStats>('InAppStats').implement({
  fields: (t) => ({
    variants: t.field({ type: [InAppVariantStats], resolve: (s) => s.variants }),
    days: t.field({ type: [InAppDayStats], resolve: (s) => s.days }),
  }),
});

const InAppMessageRef = builder.prismaObject('InAppMessage', {
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    name: t.exposeString('name'),
    kind: t.expose('kind', { type: InAppKind }),
    state: t.expose('state', { type: InAppState }),
    priority: t.exposeInt('priority', {
      description: "Higher first: the order of a check-in's answer, and which message wins when a cap is reached.",
    }),
    variants: t.field({ type: [InAppVariant], resolve: (m) => m.variants as unknown as Variant[] }),
    controlWeight: t.exposeInt('controlWeight', { description: "The control group's weight beside the variants' (0: none)." }),
    audience: t.field({ type: JSONValue, nullable: true, description: 'The audience rule; null: everyone.', resolve: (m) => m.audience }),
    workflowOnly: t.exposeBoolean('workflowOnly', {
      description: 'Shown only to the people a workflow sends it to (its audience aside); false: to its audience and to them.',
    }),
    screens: t.exposeStringList('screens', { description: 'Named screens it is for; empty: any.' }),
    topic: t.exposeString('topicKey', { nullable: true, description: 'The preference topic it goes under, by key.' }),
    show: t.expose('show', { type: InAppShow }),
    startAt: t.expose('startAt', { type: 'DateTime', nullable: true }),
    stopAt: t.expose('stopAt', { type: 'DateTime', nullable: true }),
    sendingWindow: t.field({
      type: InAppWindow,
      nullable: true,
      resolve: (m) => m.sendingWindow as { days: number[]; from: string; to: string } | null,
    }),
    quietHours: t.field({ type: InAppQuiet, nullable: true, resolve: (m) => m.quietHours as { from: string; to: string } | null }),
    goal: t.field({ type: JSONValue, nullable: true, description: '{ event, days } or { attribute, days }.', resolve: (m) => m.goal }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    liveAt: t.expose('liveAt', { type: 'DateTime', nullable: true, description: 'When it first went live.' }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true }),
    // Every listed message's statistics come from one read.
    stats: t.field({
      type: InAppStats,
      resolve: (m, _args, ctx) => batchLoad(ctx, 'inapp-stats', m.id, (ids) => statsOfMany(asStaff(ctx), ids)),
    }),
  }),
});

const InAppMessageConnection = connectionType(InAppMessageRef, 'InAppMessage');

builder.queryField('inAppMessages', (t) =>
  t.prismaConnection(
    {
      type: 'InAppMessage',
      cursor: 'id',
      description: "The app-mode's messages, newest first (of one state when given).",
      args: { appModeId: t.arg.id({ required: true }), state: t.arg({ type: InAppState }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId, state }, ctx) =>
        ctx.svc.db.inAppMessage.findMany({
          ...query,
          where: { appModeId, ...(state ? { state } : {}) },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        }),
    },
    InAppMessageConnection,
  ),
);

builder.queryField('inAppMessage', (t) =>
  t.prismaField({
    type: 'InAppMessage',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { inAppMessageId: id } }),
    resolve: (query, _root, { id }, ctx) => ctx.svc.db.inAppMessage.findUniqueOrThrow({ ...query, where: { id } }),
  }),
);

const VariantInput = builder.inputType('InAppVariantInput', {
  fields: (t) => ({
    key: t.string({ required: true, description: '1 to 20 lower-case letters, digits, _ and -; not `control`.' }),
    weight: t.int({ required: true, description: '1 to 1000.' }),
    content: t.field({ type: JSONValue, required: true }),
  }),
});

const WindowInput = builder.inputType('InAppSendingWindowInput', {
  fields: (t) => ({ days: t.intList({ required: true }), from: t.string({ required: true }), to: t.string({ required: true }) }),
});
const QuietInput = builder.inputType('InAppQuietHoursInput', {
  fields: (t) => ({ from: t.string({ required: true }), to: t.string({ required: true }) }),
});
const GoalInput = builder.inputType('InAppGoalInput', {
  description: 'An event, or an attribute condition ({ attribute, op, value }), within `days` of seeing the message.',
  fields: (t) => ({ event: t.string(), attribute: t.field({ type: JSONValue }), days: t.int({ required: true }) }),
});

const MessageInputRef = builder.inputType('InAppMessageInput', {
  description: 'Only the fields given change; null clears audience, topic, schedule, window, quiet hours and goal.',
  fields: (t) => ({
    name: t.string(),
    priority: t.int({ description: '-1000 to 1000; 0 when left out.' }),
    content: t.field({ type: JSONValue, description: 'The content of a message with one variant (key a).' }),
    variants: t.field({ type: [VariantInput], description: 'Several variants (1 to 5), each with its content.' }),
    controlWeight: t.int(),
    audience: t.field({
      type: JSONValue,
      description:
        'Rules over contact fields, attributes, events, language, platform, app version and the check-in’s screen in all/any groups (see README).',
    }),
    workflowOnly: t.boolean({ description: 'Shown only to the people a workflow sends it to (false when left out).' }),
    screens: t.stringList(),
    topic: t.string({ description: "A topic's key (one that goes by in_app)." }),
    show: t.field({ type: InAppShow }),
    startAt: t.field({ type: 'DateTime' }),
    stopAt: t.field({ type: 'DateTime' }),
    sendingWindow: t.field({ type: WindowInput }),
    quietHours: t.field({ type: QuietInput }),
    goal: t.field({ type: GoalInput }),
  }),
});

type Given = typeof MessageInputRef.$inferInput;
const orUndefined = <T>(v: T | null | undefined) => v ?? undefined;
const messageInput = (i: Given): MessageInput => ({
  name: orUndefined(i.name),
  priority: orUndefined(i.priority),
  content: i.content === null ? undefined : i.content,
  variants: i.variants?.map((v) => ({ key: v.key, weight: v.weight, content: v.content })),
  controlWeight: orUndefined(i.controlWeight),
  audience: i.audience,
  workflowOnly: orUndefined(i.workflowOnly),
  screens: orUndefined(i.screens),
  topic: i.topic,
  show: orUndefined(i.show),
  startAt: i.startAt,
  stopAt: i.stopAt,
  sendingWindow: i.sendingWindow,
  quietHours: i.quietHours,
  goal: i.goal,
});

builder.mutationField('createInAppMessage', (t) =>
  t.prismaField({
    type: 'InAppMessage',
    description: 'A draft message; content (or variants) and name are required. Refusals name each bad field by its path.',
    args: {
      appModeId: t.arg.id({ required: true }),
      kind: t.arg({ type: InAppKind, required: true }),
      input: t.arg({ type: MessageInputRef, required: true }),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (query, _root, { appModeId, kind, input }, ctx) =>
      ctx.svc.db.inAppMessage.findUniqueOrThrow({
        ...query,
        where: { id: (await createMessage(asStaff(ctx), appModeId, kind, { ...messageInput(input), name: input.name ?? '' })).id },
      }),
  }),
);

builder.mutationField('changeInAppMessage', (t) =>
  t.prismaField({
    type: 'InAppMessage',
    description: 'Changes a message that has not ended; a live one changes for check-ins at once.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: MessageInputRef, required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { inAppMessageId: id } }),
    resolve: async (query, _root, { id, input }, ctx) =>
      ctx.svc.db.inAppMessage.findUniqueOrThrow({
        ...query,
        where: { id: (await changeMessage(asStaff(ctx), id, messageInput(input))).id },
      }),
  }),
);

builder.mutationField('setInAppMessageState', (t) =>
  t.prismaField({
    type: 'InAppMessage',
    description: 'draft → live ⇄ paused → ended (a draft may also end); any other move is state_change_refused.',
    args: { id: t.arg.id({ required: true }), state: t.arg({ type: InAppState, required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { inAppMessageId: id } }),
    resolve: async (query, _root, { id, state }, ctx) =>
      ctx.svc.db.inAppMessage.findUniqueOrThrow({ ...query, where: { id: (await setMessageState(asStaff(ctx), id, state)).id } }),
  }),
);

builder.mutationField('deleteInAppMessage', (t) =>
  t.boolean({
    description: 'Deletes a draft (message_not_draft otherwise: end it instead).',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { inAppMessageId: id } }),
    resolve: async (_root, { id }, ctx) => {
      await deleteMessage(asStaff(ctx), id);
      return true;
    },
  }),
);

// --- The audience's count ------------------------------------------------------------------

const AudienceCountRef = builder.objectRef<AudienceCount>('AudienceCount').implement({
  description: `How many people an audience reaches now. At most ${COUNT_EXAMINED.toLocaleString('en')} people are examined (in the order of their user ids); beyond them \`exact\` is false and \`count\` is a lower bound.`,
  fields: (t) => ({
    count: t.exposeInt('count', { description: 'People reached among those examined.' }),
    exact: t.exposeBoolean('exact', { description: 'Whether every person of the app-mode was examined.' }),
    examined: t.exposeInt('examined'),
    people: t.exposeInt('people', {
      description: `The app-mode's people (those being erased left out), counted up to ${PEOPLE_COUNTED.toLocaleString('en')}.`,
    }),
  }),
});

builder.queryField('audienceCount', (t) =>
  t.field({
    type: AudienceCountRef,
    description:
      "The people of the app-mode an audience rule (as InAppMessageInput.audience; null: everyone) reaches now, by the check-in's own test of it. Conditions on what only a check-in says (platform, app_version, screen) are counted as met. A bad rule is refused naming its member (`audience.all.1.attribute`).",
    args: { appModeId: t.arg.id({ required: true }), audience: t.arg({ type: JSONValue }) },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    resolve: (_root, { appModeId, audience }, ctx) => countAudience(asStaff(ctx), appModeId, audience ?? null),
  }),
);

// --- Test phones and test copies ------------------------------------------------------------

const InAppTestPhoneRef = builder.prismaObject('InAppTestPhone', {
  fields: (t) => ({
    externalId: t.exposeString('externalId'),
    label: t.exposeString('label'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const InAppTestSendRef = builder.prismaObject('InAppTestSend', {
  description: 'A test copy: answered at the test phone’s next check-in with the Test flag; its receipts are kept here and never counted.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The message id the test copy is answered under.' }),
    messageId: t.exposeID('messageId', { nullable: true }),
    externalId: t.exposeString('externalId'),
    variant: t.exposeString('variant'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true, description: 'When a check-in answered it.' }),
    seenAt: t.expose('seenAt', { type: 'DateTime', nullable: true }),
    clickedAt: t.expose('clickedAt', { type: 'DateTime', nullable: true }),
    dismissedAt: t.expose('dismissedAt', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryField('inAppTestPhones', (t) =>
  t.prismaConnection(
    {
      type: 'InAppTestPhone',
      cursor: 'contactId',
      args: { appModeId: t.arg.id({ required: true }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId }, ctx) =>
        ctx.svc.db.inAppTestPhone.findMany({ ...query, where: { appModeId }, orderBy: [{ createdAt: 'asc' }, { contactId: 'asc' }] }),
    },
    connectionType(InAppTestPhoneRef, 'InAppTestPhone'),
  ),
);

builder.queryField('inAppTestSends', (t) =>
  t.prismaConnection(
    {
      type: 'InAppTestSend',
      cursor: 'id',
      description: "A message's test copies, newest first.",
      args: { messageId: t.arg.id({ required: true }) },
      authScopes: (_root, { messageId }) => ({ read: { inAppMessageId: messageId } }),
      resolve: (query, _root, { messageId }, ctx) =>
        ctx.svc.db.inAppTestSend.findMany({ ...query, where: { messageId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
    },
    connectionType(InAppTestSendRef, 'InAppTestSend'),
  ),
);

builder.mutationField('markTestPhone', (t) =>
  t.prismaField({
    type: 'InAppTestPhone',
    description: 'Marks a person of the app-mode as a test phone (check-ins then say testPhone: true); marking again changes the label.',
    args: { appModeId: t.arg.id({ required: true }), externalId: t.arg.string({ required: true }), label: t.arg.string() },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (query, _root, { appModeId, externalId, label }, ctx) => {
      const phone = await markTestPhone(asStaff(ctx), appModeId, externalId, label ?? '');
      return ctx.svc.db.inAppTestPhone.findUniqueOrThrow({ ...query, where: { contactId: phone.contactId } });
    },
  }),
);

builder.mutationField('unmarkTestPhone', (t) =>
  t.boolean({
    description: 'True when the person was a test phone.',
    args: { appModeId: t.arg.id({ required: true }), externalId: t.arg.string({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId, externalId }, ctx) => unmarkTestPhone(asStaff(ctx), appModeId, externalId),
  }),
);

builder.mutationField('sendInAppTest', (t) =>
  t.prismaField({
    type: 'InAppTestSend',
    description:
      'A test copy of the message (any state; the first variant unless one is named) for a test phone’s next check-in (not_test_phone otherwise).',
    args: { messageId: t.arg.id({ required: true }), externalId: t.arg.string({ required: true }), variant: t.arg.string() },
    authScopes: (_root, { messageId }) => ({ manage_settings: { inAppMessageId: messageId } }),
    resolve: async (query, _root, { messageId, externalId, variant }, ctx) => {
      const sent = await sendTestCopy(asStaff(ctx), messageId, externalId, variant ?? undefined);
      return ctx.svc.db.inAppTestSend.findUniqueOrThrow({ ...query, where: { id: sent.id } });
    },
  }),
);

// --- Settings and declared links --------------------------------------------------------------

const InAppSettingsRef = builder.objectRef<{ appModeId: string; dailyCap: number | null }>('InAppSettings').implement({
  fields: (t) => ({
    appModeId: t.exposeID('appModeId'),
    dailyCap: t.exposeInt('dailyCap', {
      nullable: true,
      description: 'Messages one person is answered a day, in their own time zone; null: no cap.',
    }),
  }),
});

builder.queryField('inAppSettings', (t) =>
  t.field({
    type: InAppSettingsRef,
    args: { appModeId: t.arg.id({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    resolve: async (_root, { appModeId }, ctx) => ({
      appModeId,
      dailyCap: (await ctx.svc.db.inAppSettings.findUnique({ where: { appModeId } }))?.dailyCap ?? null,
    }),
  }),
);

builder.mutationField('setInAppSettings', (t) =>
  t.field({
    type: InAppSettingsRef,
    args: { appModeId: t.arg.id({ required: true }), dailyCap: t.arg.int({ description: '1 to 100; null: no cap.' }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId, dailyCap }, ctx) => setInAppSettings(asStaff(ctx), appModeId, { dailyCap: dailyCap ?? null }),
  }),
);

const AppLinkRef = builder.objectRef<{ name: string; path: string; webUrl?: string; screen?: string }>('AppLink').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    path: t.exposeString('path', { description: 'A template such as /offers/{offer_id}.' }),
    webUrl: t.exposeString('webUrl', { nullable: true }),
    screen: t.exposeString('screen', { nullable: true }),
  }),
});

const AppLinkSetRef = builder.prismaObject('AppLinkSet', {
  description: 'The links an app version declared, by their digest: product paths in messages must match one of an app-mode’s.',
  fields: (t) => ({
    digest: t.exposeString('digest'),
    appVersions: t.exposeStringList('appVersions'),
    links: t.field({ type: [AppLinkRef], resolve: (s) => s.links as never }),
    firstReportedAt: t.expose('firstReportedAt', { type: 'DateTime' }),
    lastReportedAt: t.expose('lastReportedAt', { type: 'DateTime' }),
  }),
});

builder.queryField('appLinks', (t) =>
  t.prismaConnection(
    {
      type: 'AppLinkSet',
      cursor: 'appModeId_digest',
      description: `The app-mode's declared links, the latest report first: the ${MAX_LINK_SETS} digests reported last, each with at most ${MAX_DECLARED_LINKS} links.`,
      args: { appModeId: t.arg.id({ required: true }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId }, ctx) =>
        ctx.svc.db.appLinkSet.findMany({ ...query, where: { appModeId }, orderBy: { reportSeq: 'desc' } }),
    },
    connectionType(AppLinkSetRef, 'AppLinkSet'),
  ),
);

// --- Live statistics ---------------------------------------------------------------------------

const InAppCountRef = builder.objectRef<Count>('InAppCount').implement({
  description: 'One more person counted.',
  fields: (t) => ({
    messageId: t.exposeID('messageId'),
    variant: t.exposeString('variant'),
    control: t.exposeBoolean('control'),
    counter: t.exposeString('counter', { description: 'sent, seen, clicked, dismissed, completed or goalReached.' }),
    day: t.exposeString('day'),
  }),
});

const InAppStatsEventRef = builder.objectRef<StatsEvent>('InAppStatsEvent').implement({
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Name it as `after` to resume from here after a reconnect.' }),
    reload: t.exposeBoolean('reload', { description: 'The statistics as they are now (in `stats`): drop what you had.' }),
    stats: t.field({ type: InAppStats, nullable: true, resolve: (e) => e.stats }),
    counts: t.field({
      type: [InAppCountRef],
      description: 'People counted since the last event: add each to the statistics held.',
      resolve: (e) => e.counts,
    }),
  }),
});

const InAppCountsEventRef = builder.objectRef<CountsEvent>('InAppCountsEvent').implement({
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Name it as `after` to resume from here after a reconnect.' }),
    reload: t.exposeBoolean('reload', {
      description: 'Read again the statistics you show (the first event, and after a gap): counts may have been missed.',
    }),
    counts: t.field({
      type: [InAppCountRef],
      description: 'People counted since the last event, each naming its message: add each to the statistics held.',
      resolve: (e) => e.counts,
    }),
  }),
});

builder.subscriptionField('inAppCounts', (t) =>
  t.field({
    type: InAppCountsEventRef,
    description:
      "Every person counted for any of the app-mode's messages, from any server process, in order: one subscription for a list of messages' statistics.",
    args: { appModeId: t.arg.id({ required: true }), after: t.arg.string() },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    subscribe: (_root, { appModeId, after }, ctx) =>
      liveFor(ctx, { appModeId }, 'read', (signal) => liveCounts(asStaff(ctx), appModeId, { after, signal })),
    resolve: (event) => event,
  }),
);

builder.subscriptionField('inAppStats', (t) =>
  t.field({
    type: InAppStatsEventRef,
    description: "A message's statistics, then every person counted, from any server process, in order.",
    args: { messageId: t.arg.id({ required: true }), after: t.arg.string() },
    authScopes: (_root, { messageId }) => ({ read: { inAppMessageId: messageId } }),
    subscribe: async (_root, { messageId, after }, ctx) => {
      const message = await messageIn(asStaff(ctx), messageId);
      return liveFor(ctx, { inAppMessageId: messageId }, 'read', (signal) =>
        liveStats(asStaff(ctx), message.appModeId, messageId, { after, signal }),
      );
    },
    resolve: (event) => event,
  }),
);
