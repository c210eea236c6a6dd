import { CHANNELS, type Channel } from '../../domain/preferences/channels.js';
import { preferencesOfMany, type ChannelPreference, type Preferences, type TopicPreference } from '../../domain/preferences/read.js';
import { changeContactPreferences } from '../../domain/preferences/staff.js';
import { addTopic, archiveTopic, changeTopic } from '../../domain/preferences/topics.js';
import { batchLoad } from '../batch.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';

// Topics and channel preferences on the staff API. Owners and admins define the app-mode's topics
// (manage_settings); every member reads them, and a person's preferences and every change to them
// with the words the person was shown. A member may change a person's preferences for them (reply),
// saying what the person asked for.

const PreferenceChannel = builder.enumType('PreferenceChannel', { values: CHANNELS });
const PreferenceSource = builder.enumType('PreferenceSource', {
  values: {
    guest: { description: 'The person, in the app.' },
    staff: { description: 'A team member, for the person.' },
    email: { description: "The person, through an email's link." },
  } as const,
});
const PreferenceChangeKind = builder.enumType('PreferenceChangeKind', {
  values: { choice: { description: 'One topic by one channel.' }, all_off: { description: 'Everything off, or back on.' } } as const,
});

const PreferenceTopic = builder.prismaObject('PreferenceTopic', {
  description: 'Something the app tells people about, and the channels it goes by.',
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    key: t.exposeString('key', { description: 'What senders and the app name the topic by; fixed, never reused.' }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    channels: t.expose('channels', {
      type: [PreferenceChannel],
      description: 'The channels it goes by, in the order email, push, in_app.',
    }),
    subscribedByDefault: t.exposeBoolean('subscribedByDefault', { description: 'Whether a person who never chose hears of it.' }),
    offers: t.exposeBoolean('offers', {
      description: "Offers: by email or push it also needs the person's consent to offers by that channel.",
    }),
    archivedAt: t.expose('archivedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Archived topics are shown to no one and reach no one.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const PreferenceTopicConnection = connectionType(PreferenceTopic, 'PreferenceTopic');

builder.queryField('preferenceTopics', (t) =>
  t.prismaConnection(
    {
      type: 'PreferenceTopic',
      cursor: 'id',
      description: "The app-mode's topics, oldest first: those in use, or with archived: true the archived ones.",
      args: { appModeId: t.arg.id({ required: true }), archived: t.arg.boolean() },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId, archived }, ctx) =>
        ctx.svc.db.preferenceTopic.findMany({
          ...query,
          where: { appModeId, archivedAt: archived ? { not: null } : null },
          orderBy: [{ createdAt: 'asc' }, { key: 'asc' }],
        }),
    },
    PreferenceTopicConnection,
  ),
);

const TopicFields = builder.inputType('PreferenceTopicInput', {
  description: 'Only the fields given change; the key never does.',
  fields: (t) => ({
    name: t.string({ description: '1 to 100 characters.' }),
    description: t.string({ description: 'At most 500 characters.' }),
    channels: t.field({ type: [PreferenceChannel], description: 'At least one.' }),
    subscribedByDefault: t.boolean(),
    offers: t.boolean(),
  }),
});

const orUndefined = <T>(v: T | null | undefined) => v ?? undefined;

builder.mutationField('addPreferenceTopic', (t) =>
  t.prismaField({
    type: 'PreferenceTopic',
    description: 'Adds a topic (at most 100 in use per app-mode). subscribedByDefault is true and offers false when left out.',
    args: {
      appModeId: t.arg.id({ required: true }),
      key: t.arg.string({
        required: true,
        description: '1 to 64 lower-case letters, digits and _ . -, starting with a letter or digit; unique in the app-mode for ever.',
      }),
      name: t.arg.string({ required: true }),
      channels: t.arg({ type: [PreferenceChannel], required: true }),
      description: t.arg.string(),
      subscribedByDefault: t.arg.boolean(),
      offers: t.arg.boolean(),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (query, _root, args, ctx) => {
      const made = await addTopic(asStaff(ctx), args.appModeId, {
        key: args.key,
        name: args.name,
        channels: args.channels,
        description: orUndefined(args.description),
        subscribedByDefault: orUndefined(args.subscribedByDefault),
        offers: orUndefined(args.offers),
      });
      return ctx.svc.db.preferenceTopic.findUniqueOrThrow({ ...query, where: { id: made.id } });
    },
  }),
);

builder.mutationField('changePreferenceTopic', (t) =>
  t.prismaField({
    type: 'PreferenceTopic',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: TopicFields, required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { preferenceTopicId: id } }),
    resolve: async (query, _root, { id, input }, ctx) => {
      await changeTopic(asStaff(ctx), id, {
        name: orUndefined(input.name),
        description: orUndefined(input.description),
        channels: orUndefined(input.channels),
        subscribedByDefault: orUndefined(input.subscribedByDefault),
        offers: orUndefined(input.offers),
      });
      return ctx.svc.db.preferenceTopic.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

builder.mutationField('archivePreferenceTopic', (t) =>
  t.prismaField({
    type: 'PreferenceTopic',
    description: 'Archives a topic: shown to no one, reaching no one; its key is not reused. People’s choices on it are kept.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { preferenceTopicId: id } }),
    resolve: async (query, _root, { id }, ctx) => {
      await archiveTopic(asStaff(ctx), id);
      return ctx.svc.db.preferenceTopic.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

// --- A person's preferences ------------------------------------------------------------------

const ChannelPreferenceRef = builder.objectRef<ChannelPreference>('ChannelPreference').implement({
  fields: (t) => ({
    channel: t.expose('channel', { type: PreferenceChannel }),
    subscribed: t.exposeBoolean('subscribed', { description: "The person's own choice, or the topic's default when they never chose." }),
    hears: t.exposeBoolean('hears', { description: 'Whether a message of the topic reaches them by this channel now.' }),
    needsConsent: t.exposeBoolean('needsConsent', { description: 'An offers topic by email or push they have not agreed to offers by.' }),
  }),
});

const TopicPreferenceRef = builder.objectRef<TopicPreference>('TopicPreference').implement({
  fields: (t) => ({
    topic: t.field({ type: PreferenceTopic, resolve: (p) => p.topic }),
    channels: t.field({ type: [ChannelPreferenceRef], resolve: (p) => p.channels }),
  }),
});

const ContactPreferences = builder.objectRef<Preferences>('ContactPreferences').implement({
  description: "A person's preferences: every topic in use with the channels it goes by.",
  fields: (t) => ({
    allOff: t.exposeBoolean('allOff', { description: 'They turned everything off: they hear of nothing, in-app included.' }),
    topics: t.field({ type: [TopicPreferenceRef], resolve: (p) => p.topics }),
  }),
});

const PreferenceChange = builder.prismaObject('PreferenceChange', {
  description: 'A change that changed something, kept as proof.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.expose('kind', { type: PreferenceChangeKind }),
    topic: t.exposeString('topicKey', { nullable: true, description: "The topic's key, for a choice." }),
    channel: t.expose('channel', { type: PreferenceChannel, nullable: true }),
    value: t.exposeBoolean('value', { description: 'A choice: subscribed or not. All-off: everything off or not.' }),
    wording: t.exposeString('wording', {
      nullable: true,
      description: 'The words the person was shown (or, from staff, what the person asked for).',
    }),
    source: t.expose('source', { type: PreferenceSource }),
    changedAt: t.expose('changedAt', { type: 'DateTime' }),
  }),
});

const PreferenceChangeConnection = connectionType(PreferenceChange, 'PreferenceChange');

builder.prismaObjectFields('Contact', (t) => ({
  preferences: t.field({
    type: ContactPreferences,
    select: { id: true, appModeId: true },
    // Every listed person's preferences come from one read.
    resolve: (contact, _args, ctx) =>
      batchLoad(ctx, `preferences:${contact.appModeId}`, contact.id, (ids) => preferencesOfMany(asStaff(ctx), contact.appModeId, ids)),
  }),
  preferenceHistory: t.relatedConnection(
    'preferenceChanges',
    { cursor: 'id', description: 'Every preference change, newest first.', query: { orderBy: [{ changedAt: 'desc' }, { id: 'desc' }] } },
    PreferenceChangeConnection,
  ),
}));

const ChoiceInput = builder.inputType('PreferenceChoiceInput', {
  fields: (t) => ({
    topic: t.string({ required: true, description: "A topic's key." }),
    channel: t.field({ type: PreferenceChannel, required: true }),
    subscribed: t.boolean({ required: true }),
  }),
});

builder.mutationField('changeContactPreferences', (t) =>
  t.field({
    type: ContactPreferences,
    description:
      "Changes a person's preferences for them: kept like their own changes, with source staff. wording says what the person asked for; refusals name choices.<index>.topic or .channel as on the guest route. Turning something off is posted as contact.unsubscribed.",
    args: {
      appModeId: t.arg.id({ required: true }),
      externalId: t.arg.string({ required: true }),
      wording: t.arg.string({ required: true }),
      allOff: t.arg.boolean(),
      choices: t.arg({ type: [ChoiceInput] }),
    },
    authScopes: (_root, { appModeId }) => ({ reply: { appModeId } }),
    resolve: (_root, { appModeId, externalId, wording, allOff, choices }, ctx) =>
      changeContactPreferences(asStaff(ctx), appModeId, externalId, {
        wording,
        allOff: orUndefined(allOff),
        choices: choices?.map((c) => ({ topic: c.topic, channel: c.channel as Channel, subscribed: c.subscribed })),
      }),
  }),
);
