import type { BotButton, BotHandover, BotQuestion } from '../../domain/bot/graph.js';
import { saveHelpBot } from '../../domain/bot/help-bot.js';
import { VALUE_KINDS } from '../../domain/bot/values.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';

// The help bot on the staff API: its name, steps and openings, read by every member and saved
// as one graph by owners and admins (manage_settings). A save is checked as a whole and refused
// naming each bad member (steps.<i>.buttons.<j>.next, openings.<i>.active…).

const BotValueKind = builder.enumType('BotValueKind', {
  values: {
    email: { description: 'An email address.' },
    number: { description: 'A number, such as 42 or 3.5.' },
    text: { description: 'Up to 1,000 characters of text.' },
  } satisfies Record<(typeof VALUE_KINDS)[number], unknown>,
});

const NEXT = 'A step’s key, or handover to hand the conversation to the team.';

const BotButtonRef = builder.objectRef<BotButton>('BotButton').implement({
  fields: (t) => ({ id: t.exposeString('id'), label: t.exposeString('label'), next: t.exposeString('next', { description: NEXT }) }),
});

const BotQuestionRef = builder.objectRef<BotQuestion>('BotQuestion').implement({
  fields: (t) => ({
    kind: t.field({ type: BotValueKind, resolve: (q) => q.kind }),
    key: t.exposeString('key', { description: 'The key the answer is collected under (the export’s collected).' }),
    next: t.exposeString('next', { description: NEXT }),
  }),
});

const BotHandoverRef = builder.objectRef<BotHandover>('BotHandover').implement({
  fields: (t) => ({
    teamId: t.exposeID('teamId', { nullable: true, description: 'The team the conversation is assigned to; null: the team as a whole.' }),
  }),
});

const BotStepRef = builder.prismaObject('BotStep', {
  description: 'What the bot says, then one way on: buttons, a question, or a hand-over.',
  fields: (t) => ({
    key: t.exposeString('key'),
    blocks: t.expose('blocks', { type: 'JSON', description: 'Content blocks.' }),
    buttons: t.field({ type: [BotButtonRef], resolve: (s) => s.buttons as unknown as BotButton[] }),
    question: t.field({ type: BotQuestionRef, nullable: true, resolve: (s) => s.question as unknown as BotQuestion | null }),
    handover: t.field({ type: BotHandoverRef, nullable: true, resolve: (s) => s.handover as unknown as BotHandover | null }),
  }),
});

/** What an opening shows now: its latest version. */
const CURRENT = { versions: { orderBy: { version: 'desc' }, take: 1, select: { blocks: true, buttons: true } } } as const;

const BotOpeningRef = builder.prismaObject('BotOpening', {
  description: 'A greeting the messenger shows before a conversation, with buttons that start one the bot answers.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    language: t.exposeString('language', { nullable: true, description: 'Null: every language without an active opening of its own.' }),
    active: t.exposeBoolean('active'),
    version: t.exposeInt('version', {
      description: 'Grows with each save that changes its blocks or buttons; starts name the version shown.',
    }),
    blocks: t.field({
      type: 'JSON',
      description: 'Paragraph content blocks.',
      select: CURRENT,
      resolve: (o) => o.versions[0]?.blocks ?? [],
    }),
    buttons: t.field({ type: [BotButtonRef], select: CURRENT, resolve: (o) => (o.versions[0]?.buttons ?? []) as unknown as BotButton[] }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

type HelpBotShape = { appModeId: string; name: string | null; updatedAt: Date | null };

const HelpBotRef = builder.objectRef<HelpBotShape>('HelpBot').implement({
  fields: (t) => ({
    appModeId: t.exposeID('appModeId'),
    name: t.exposeString('name', { nullable: true, description: 'The name its parts are written by; null until first saved.' }),
    steps: t.prismaConnection(
      {
        type: 'BotStep',
        cursor: 'appModeId_key',
        description: 'In the order saved.',
        resolve: (query, bot, _args, ctx) =>
          ctx.svc.db.botStep.findMany({ ...query, where: { appModeId: bot.appModeId }, orderBy: [{ position: 'asc' }, { key: 'asc' }] }),
      },
      connectionType(BotStepRef, 'BotStep'),
    ),
    openings: t.prismaConnection(
      {
        type: 'BotOpening',
        cursor: 'id',
        description: 'In the order saved; removed openings are left out.',
        resolve: (query, bot, _args, ctx) =>
          ctx.svc.db.botOpening.findMany({
            ...query,
            where: { appModeId: bot.appModeId, removedAt: null },
            orderBy: [{ position: 'asc' }, { id: 'asc' }],
          }),
      },
      connectionType(BotOpeningRef, 'BotOpening'),
    ),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryField('helpBot', (t) =>
  t.field({
    type: HelpBotRef,
    args: { appModeId: t.arg.id({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    resolve: async (_root, { appModeId }, ctx) => {
      const bot = await ctx.svc.db.helpBot.findUnique({ where: { appModeId } });
      return { appModeId, name: bot?.name ?? null, updatedAt: bot?.updatedAt ?? null };
    },
  }),
);

const ButtonInput = builder.inputType('BotButtonInput', {
  fields: (t) => ({
    id: t.string({
      required: true,
      description: 'Unique among the buttons of its step or opening: 1 to 40 lowercase letters, digits or _.',
    }),
    label: t.string({ required: true, description: '1 to 60 characters.' }),
    next: t.string({ required: true, description: NEXT }),
  }),
});

const QuestionInput = builder.inputType('BotQuestionInput', {
  fields: (t) => ({
    kind: t.field({ type: BotValueKind, required: true }),
    key: t.string({ required: true, description: 'The key the answer is collected under.' }),
    next: t.string({ required: true, description: NEXT }),
  }),
});

const HandoverInput = builder.inputType('BotHandoverInput', {
  fields: (t) => ({ teamId: t.id({ description: 'A team of the workspace; left out: no team.' }) }),
});

const StepInput = builder.inputType('BotStepInput', {
  description: 'Exactly one of buttons, question and handover.',
  fields: (t) => ({
    key: t.string({ required: true, description: '1 to 40 lowercase letters, digits or _; not handover.' }),
    blocks: t.field({ type: 'JSON', required: true, description: 'At most 10 content blocks; may be empty only for a hand-over.' }),
    buttons: t.field({ type: [ButtonInput], description: 'At most 5.' }),
    question: t.field({ type: QuestionInput }),
    handover: t.field({ type: HandoverInput }),
  }),
});

const OpeningInput = builder.inputType('BotOpeningInput', {
  fields: (t) => ({
    id: t.id({ description: 'An opening saved before; left out: a new one.' }),
    name: t.string({ required: true, description: 'For staff: 1 to 100 characters.' }),
    language: t.string({ description: 'One of the app’s languages; left out: every language without an active opening of its own.' }),
    active: t.boolean({ required: true, description: 'At most one active opening per language (and one for every language).' }),
    blocks: t.field({ type: 'JSON', required: true, description: '1 to 3 paragraph content blocks.' }),
    buttons: t.field({ type: [ButtonInput], required: true, description: 'At most 5.' }),
  }),
});

builder.mutationField('saveHelpBot', (t) =>
  t.field({
    type: HelpBotRef,
    description:
      'Saves the whole bot at once: its name, every step (those left out are removed) and every opening (those left out are removed from the messenger; their versions stay for starts that name them). Every button and question leads to a step or to handover, every step is reached from an opening or a step, and a refusal names each bad member.',
    args: {
      appModeId: t.arg.id({ required: true }),
      name: t.arg.string({ required: true, description: '1 to 60 characters: the name the bot’s parts are written by.' }),
      steps: t.arg({ type: [StepInput], required: true, description: 'At most 100.' }),
      openings: t.arg({ type: [OpeningInput], required: true, description: 'At most 20.' }),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId, name, steps, openings }, ctx) =>
      saveHelpBot(asStaff(ctx), appModeId, {
        name,
        steps: steps.map((s) => ({ ...s, blocks: s.blocks, handover: s.handover ? { teamId: s.handover.teamId ?? null } : null })),
        openings: openings.map((o) => ({ ...o, blocks: o.blocks, language: o.language ?? null })),
      }),
  }),
);
