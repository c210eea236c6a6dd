import { START_RULES } from '../../domain/conversations/settings.js';
import { CARD_KINDS, type Card } from '../../domain/messenger-home/cards.js';
import type { Face } from '../../domain/messenger-home/faces.js';
import { REPLY_TIMES } from '../../domain/messenger-home/reply-time.js';
import { changeMessengerSettings, messengerSettingsOf, type MessengerSettings } from '../../domain/messenger-home/settings.js';
import { builder } from '../builder.js';
import { asStaff } from '../context.js';
import { StaffUserRef } from './staff.js';
import { staffUserById } from './teams.js';

// An app-mode's messenger settings on the staff API: who may start conversations, and what the
// messenger home shows (greeting, team faces, reply time, cards). Every member reads them; owners
// and admins change them (manage_settings).

const StartRule = builder.enumType('StartRule', {
  values: {
    always: { description: 'People start conversations whenever they like.' },
    never: { description: 'Only the team starts conversations (a start is 409 start_refused).' },
    when_none_open: { description: 'A person starts one only while none of theirs is open (409 conversation_open).' },
  } satisfies Record<(typeof START_RULES)[number], unknown>,
});

const ReplyTime = builder.enumType('ReplyTime', {
  values: {
    minutes: { description: 'In a few minutes.' },
    hour: { description: 'Within an hour.' },
    day: { description: 'Within a day.' },
    stated: { description: 'In the team’s own words (replyTimeText).' },
  } satisfies Record<(typeof REPLY_TIMES)[number], unknown>,
});

const MessengerCardKind = builder.enumType('MessengerCardKind', {
  values: {
    message: { description: 'Send us a message: the messenger starts a conversation.' },
    link: { description: 'Opens its link.' },
    article: { description: 'Opens a help center article (not shown while the help center is off).' },
  } satisfies Record<(typeof CARD_KINDS)[number], unknown>,
});

const MessengerFace = builder.objectRef<Face>('MessengerFace').implement({
  fields: (t) => ({
    staffUserId: t.exposeID('staffUserId'),
    staffUser: t.field({
      type: StaffUserRef,
      nullable: true,
      description: 'Null once they left the workspace (they are then not shown).',
      resolve: async (f, _args, ctx) => (await staffUserById(ctx, f.staffUserId)) ?? null,
    }),
    avatarUrl: t.exposeString('avatarUrl', { nullable: true }),
  }),
});

const MessengerCard = builder.objectRef<Card>('MessengerCard').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.field({ type: MessengerCardKind, resolve: (c) => c.kind }),
    title: t.exposeString('title'),
    text: t.exposeString('text'),
    link: t.exposeString('link', { nullable: true }),
    articleSlug: t.exposeString('articleSlug', { nullable: true }),
    published: t.exposeBoolean('published'),
  }),
});

const MessengerSettingsRef = builder.objectRef<MessengerSettings>('MessengerSettings').implement({
  description: "An app-mode's messenger settings; the defaults until first changed.",
  fields: (t) => ({
    appModeId: t.exposeID('appModeId'),
    startRule: t.field({ type: StartRule, resolve: (s) => s.startRule }),
    greeting: t.exposeString('greeting', { description: 'The home’s greeting; empty for none.' }),
    faces: t.field({ type: [MessengerFace], description: 'The team members the home shows, in order.', resolve: (s) => s.faces }),
    replyTime: t.field({
      type: ReplyTime,
      nullable: true,
      description: 'How soon the team says it replies; null: not shown.',
      resolve: (s) => s.replyTime,
    }),
    replyTimeText: t.exposeString('replyTimeText', { description: 'The team’s own words, shown when replyTime is stated.' }),
    cards: t.field({
      type: [MessengerCard],
      description: 'The home’s cards in order; only published ones are shown.',
      resolve: (s) => s.cards,
    }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryField('messengerSettings', (t) =>
  t.field({
    type: MessengerSettingsRef,
    args: { appModeId: t.arg.id({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    resolve: (_root, { appModeId }, ctx) => messengerSettingsOf(asStaff(ctx), appModeId),
  }),
);

const FaceInput = builder.inputType('MessengerFaceInput', {
  fields: (t) => ({
    staffUserId: t.id({ required: true, description: 'A member of the workspace.' }),
    avatarUrl: t.string({ description: 'An https address of their picture; left out: their initials.' }),
  }),
});

const CardInput = builder.inputType('MessengerCardInput', {
  fields: (t) => ({
    id: t.id({ description: 'A card saved before keeps its id; left out: a new one.' }),
    kind: t.field({ type: MessengerCardKind, required: true }),
    title: t.string({ required: true, description: '1 to 80 characters.' }),
    text: t.string({ description: 'At most 200 characters.' }),
    link: t.string({ description: 'link cards: an https address, or a path in the product beginning with /.' }),
    articleSlug: t.string({ description: "article cards: the article's slug." }),
    published: t.boolean({ required: true }),
  }),
});

const SettingsInput = builder.inputType('MessengerSettingsInput', {
  description: 'Only the fields given change.',
  fields: (t) => ({
    startRule: t.field({ type: StartRule }),
    greeting: t.string({ description: 'At most 200 characters; empty for none.' }),
    faces: t.field({ type: [FaceInput], description: 'At most 5 members of the workspace, in the order shown; replaces the list.' }),
    replyTime: t.field({ type: ReplyTime, description: 'Null: not shown.' }),
    replyTimeText: t.string({ description: 'At most 100 characters; needed for stated.' }),
    cards: t.field({ type: [CardInput], description: 'At most 10, in order; replaces the list.' }),
  }),
});

builder.mutationField('changeMessengerSettings', (t) =>
  t.field({
    type: MessengerSettingsRef,
    description: 'Changes what is given; each refusal names its field (faces.<i>.staffUserId, cards.<i>.link…).',
    args: { appModeId: t.arg.id({ required: true }), input: t.arg({ type: SettingsInput, required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId, input }, ctx) =>
      changeMessengerSettings(asStaff(ctx), appModeId, {
        startRule: input.startRule ?? undefined,
        greeting: input.greeting ?? undefined,
        faces: input.faces ?? undefined,
        // Null is meaningful here (no reply time shown); left out keeps it.
        replyTime: input.replyTime,
        replyTimeText: input.replyTimeText ?? undefined,
        cards: input.cards ?? undefined,
      }),
  }),
);
