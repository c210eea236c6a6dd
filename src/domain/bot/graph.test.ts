import { describe, expect, it } from 'vitest';
import {
  checkBot,
  HANDOVER,
  MAX_BOT_NAME,
  MAX_BUTTONS,
  MAX_LABEL,
  MAX_OPENING_NAME,
  MAX_OPENINGS,
  MAX_STEP_BLOCKS,
  MAX_STEPS,
  type BotButton,
  type BotHandover,
  type BotQuestion,
  type HelpBotInput,
  type OpeningInput,
  type StepInput,
} from './graph.js';

// The help bot's graph checked as a whole, without a server: names, keys and ids, where every
// button and question leads, that each step goes on in exactly one way and is reached, and the
// openings (languages, one active per language, paragraphs only). Every problem is named by its
// member, all at once. The bot test saves a graph over GraphQL and sees the same fields refused.

const para = (text: string) => ({ type: 'paragraph', spans: [{ text }] });
const button = (id: string, next: string, label = `Go to ${next}`): BotButton => ({ id, label, next });
const opening = (over: Partial<OpeningInput> = {}): OpeningInput => ({
  name: 'Welcome',
  language: null,
  active: true,
  blocks: [para('Hi! How can we help?')],
  buttons: [button('billing', 'billing'), button('human', HANDOVER)],
  ...over,
});

/** The billing bot's four steps, each of its own shape: a step with two buttons, two questions, a hand-over. */
type BillingSteps = [
  StepInput & { buttons: [BotButton, BotButton] },
  StepInput & { question: BotQuestion },
  StepInput & { question: BotQuestion },
  StepInput & { handover: BotHandover },
];

/** Billing asks invoice or refund; an invoice asks an email, then an order number, then hands over; a refund hands over at once. */
const billingSteps = (): BillingSteps => [
  { key: 'billing', blocks: [para('Invoice or refund?')], buttons: [button('invoice', 'ask_email'), button('refund', 'to_team')] },
  { key: 'ask_email', blocks: [para('Your email?')], question: { kind: 'email', key: 'email', next: 'ask_order' } },
  { key: 'ask_order', blocks: [para('The order number?')], question: { kind: 'number', key: 'order', next: 'to_team' } },
  { key: 'to_team', blocks: [para('Passing you on.')], handover: { teamId: 'team-1' } },
];
const billing = (): HelpBotInput => ({ name: 'Sunny', steps: billingSteps(), openings: [opening()] });

const LANGUAGES = { languages: ['en', 'fr'] };
const check = (input: HelpBotInput, app = LANGUAGES) => checkBot(input, app);
/** The fields refused, in the order found. */
const refused = (input: HelpBotInput, app = LANGUAGES) => check(input, app).errors.map((e) => e.field);
/** The billing bot with its steps changed. */
const withSteps = (change: (steps: BillingSteps) => StepInput[]): HelpBotInput => ({ ...billing(), steps: change(billingSteps()) });
const withOpenings = (openings: OpeningInput[]): HelpBotInput => ({ ...billing(), openings });

describe('a whole graph', () => {
  it('is taken as it is, trimmed, each step with its one way on', () => {
    const steps = billingSteps();
    steps[0].buttons[0].label = ' An invoice ';
    const input = { ...billing(), name: '  Sunny ', steps };
    const { bot, errors } = check(input);
    expect(errors).toEqual([]);
    expect(bot.name).toBe('Sunny');
    expect(bot.steps).toEqual([
      {
        key: 'billing',
        blocks: [para('Invoice or refund?')],
        buttons: [
          { id: 'invoice', label: 'An invoice', next: 'ask_email' },
          { id: 'refund', label: 'Go to to_team', next: 'to_team' },
        ],
        question: null,
        handover: null,
      },
      {
        key: 'ask_email',
        blocks: [para('Your email?')],
        buttons: [],
        question: { kind: 'email', key: 'email', next: 'ask_order' },
        handover: null,
      },
      {
        key: 'ask_order',
        blocks: [para('The order number?')],
        buttons: [],
        question: { kind: 'number', key: 'order', next: 'to_team' },
        handover: null,
      },
      { key: 'to_team', blocks: [para('Passing you on.')], buttons: [], question: null, handover: { teamId: 'team-1' } },
    ]);
    expect(bot.openings).toEqual([
      {
        id: null,
        name: 'Welcome',
        language: null,
        active: true,
        blocks: [para('Hi! How can we help?')],
        buttons: [
          { id: 'billing', label: 'Go to billing', next: 'billing' },
          { id: 'human', label: 'Go to handover', next: 'handover' },
        ],
      },
    ]);
  });

  it('may be empty: no steps and no openings is no bot', () => {
    expect(check({ name: 'Quiet', steps: [], openings: [] })).toEqual({ bot: { name: 'Quiet', steps: [], openings: [] }, errors: [] });
  });

  it('may hand over from an opening without a step', () => {
    expect(refused({ name: 'Direct', steps: [], openings: [opening({ buttons: [button('human', HANDOVER)] })] })).toEqual([]);
  });

  it('hands over to the team as a whole when the hand-over names no team', () => {
    const { bot, errors } = check(withSteps((s) => [...s.slice(0, 3), { ...s[3], handover: { teamId: null } }]));
    expect(errors).toEqual([]);
    expect(bot.steps[3]?.handover).toEqual({ teamId: null });
  });
});

describe('names and sizes', () => {
  it(`names the bot with 1 to ${MAX_BOT_NAME} characters, spaces aside`, () => {
    expect(refused({ ...billing(), name: ' ' })).toEqual(['name']);
    expect(refused({ ...billing(), name: '' })).toEqual(['name']);
    expect(refused({ ...billing(), name: 'x'.repeat(MAX_BOT_NAME) })).toEqual([]);
    expect(refused({ ...billing(), name: `  ${'x'.repeat(MAX_BOT_NAME)}  ` })).toEqual([]);
    expect(refused({ ...billing(), name: 'x'.repeat(MAX_BOT_NAME + 1) })).toEqual(['name']);
  });

  it(`holds at most ${MAX_STEPS} steps and ${MAX_OPENINGS} openings`, () => {
    const chain = (n: number): StepInput[] =>
      Array.from({ length: n }, (_, i) => ({
        key: `s${i}`,
        blocks: [para(`Step ${i}`)],
        ...(i === n - 1 ? { handover: { teamId: null } } : { buttons: [button('on', `s${i + 1}`)] }),
      }));
    const start = [opening({ buttons: [button('go', 's0')] })];
    expect(refused({ name: 'Long', steps: chain(MAX_STEPS), openings: start })).toEqual([]);
    expect(refused({ name: 'Long', steps: chain(MAX_STEPS + 1), openings: start })).toEqual(['steps']);
    const languages = { languages: ['en'] };
    const closed = (n: number) => Array.from({ length: n }, (_, i) => opening({ name: `O${i}`, active: false }));
    expect(refused(withOpenings(closed(MAX_OPENINGS)), languages)).toEqual([]);
    expect(refused(withOpenings(closed(MAX_OPENINGS + 1)), languages)).toEqual(['openings']);
  });

  it(`says something in each step: 1 to ${MAX_STEP_BLOCKS} blocks, none needed before a hand-over`, () => {
    const blocks = (n: number) => Array.from({ length: n }, (_, i) => para(`Line ${i}`));
    expect(refused(withSteps((s) => [{ ...s[0], blocks: blocks(MAX_STEP_BLOCKS) }, ...s.slice(1)]))).toEqual([]);
    expect(refused(withSteps((s) => [{ ...s[0], blocks: blocks(MAX_STEP_BLOCKS + 1) }, ...s.slice(1)]))).toEqual(['steps.0.blocks']);
    expect(refused(withSteps((s) => [{ ...s[0], blocks: [] }, ...s.slice(1)]))).toEqual(['steps.0.blocks']);
    expect(refused(withSteps((s) => [...s.slice(0, 1), { ...s[1], blocks: [] }, ...s.slice(2)]))).toEqual(['steps.1.blocks']);
    expect(refused(withSteps((s) => [...s.slice(0, 3), { ...s[3], blocks: [] }]))).toEqual([]);
  });

  it('reads step blocks as help content without formatting, naming the member', () => {
    expect(check(withSteps((s) => [{ ...s[0], blocks: 'Invoice or refund?' }, ...s.slice(1)])).errors).toEqual([
      { field: 'steps.0.blocks', message: 'must be an array of content blocks' },
      { field: 'steps.0.blocks', message: 'must say something before its buttons or question' },
    ]);
    expect(refused(withSteps((s) => [{ ...s[0], blocks: [{ ...para('Hi'), color: 'red' }] }, ...s.slice(1)]))).toEqual([
      'steps.0.blocks.0.color',
      'steps.0.blocks', // blocks refused are no blocks: the step says nothing either
    ]);
    expect(refused(withSteps((s) => [{ ...s[0], blocks: [{ type: 'paragraph', spans: [] }] }, ...s.slice(1)]))).toEqual([
      'steps.0.blocks.0.spans',
      'steps.0.blocks',
    ]);
    // Other kinds of block are fine in a step.
    const heading = { type: 'heading', level: 2, spans: [{ text: 'Billing' }] };
    expect(refused(withSteps((s) => [{ ...s[0], blocks: [heading, para('Invoice or refund?')] }, ...s.slice(1)]))).toEqual([]);
  });
});

describe('keys and ids', () => {
  it('are 1 to 40 lowercase letters, digits or _, starting with a letter', () => {
    const stepKey = (key: string) =>
      refused({
        name: 'Keys',
        steps: [{ key, blocks: [para('Hi')], handover: { teamId: null } }],
        openings: [opening({ buttons: [button('go', key)] })],
      });
    for (const good of ['a', 'ask_email', 'step2', `a${'b'.repeat(39)}`]) expect(stepKey(good), good).toEqual([]);
    for (const bad of ['', 'Ask', '2nd', '_x', 'ask-email', 'ask email', `a${'b'.repeat(40)}`, 'é'])
      expect(stepKey(bad), bad).toEqual(expect.arrayContaining(['steps.0.key']));
    const buttonId = (id: string) =>
      refused(withSteps((s) => [{ ...s[0], buttons: [{ ...s[0].buttons[0], id }, s[0].buttons[1]] }, ...s.slice(1)]));
    expect(buttonId('inv_2')).toEqual([]);
    expect(buttonId('Invoice')).toEqual(['steps.0.buttons.0.id']);
    const questionKey = (key: string) => refused(withSteps((s) => [s[0], { ...s[1], question: { ...s[1].question, key } }, ...s.slice(2)]));
    expect(questionKey('email_address')).toEqual([]);
    expect(questionKey('Email!')).toEqual(['steps.1.question.key']);
  });

  it('keep step keys apart, and handover for the team', () => {
    const twice = withSteps((s) => [...s, { key: 'billing', blocks: [para('Again')], handover: { teamId: null } }]);
    const errors = check(twice).errors;
    expect(errors).toContainEqual({ field: 'steps.4.key', message: 'another step has the key billing' });
    const team = check(withSteps((s) => [...s, { key: HANDOVER, blocks: [para('Me?')], handover: { teamId: null } }])).errors;
    expect(team).toContainEqual({ field: 'steps.4.key', message: 'handover is the team, not a step' });
  });

  it('keep button ids apart within one step or opening, not across them', () => {
    expect(
      refused(withSteps((s) => [{ ...s[0], buttons: [button('same', 'ask_email'), button('same', 'to_team')] }, ...s.slice(1)])),
    ).toEqual(['steps.0.buttons.1.id']);
    expect(refused(withOpenings([opening({ buttons: [button('billing', 'billing'), button('billing', HANDOVER)] })]))).toEqual([
      'openings.0.buttons.1.id',
    ]);
    // The opening's billing button and a step's billing button are different buttons.
    expect(
      refused(withSteps((s) => [{ ...s[0], buttons: [button('billing', 'ask_email'), button('refund', 'to_team')] }, ...s.slice(1)])),
    ).toEqual([]);
  });
});

describe('buttons', () => {
  it(`are at most ${MAX_BUTTONS} a step or opening`, () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => button(`b${i}`, HANDOVER));
    expect(
      refused(withSteps((s) => [{ ...s[0], buttons: [...many(MAX_BUTTONS - 1), button('invoice', 'ask_email')] }, ...s.slice(1)])),
    ).toEqual([]);
    expect(
      refused(withSteps((s) => [{ ...s[0], buttons: [...many(MAX_BUTTONS), button('invoice', 'ask_email')] }, ...s.slice(1)])),
    ).toEqual(['steps.0.buttons']);
    expect(refused(withOpenings([opening({ buttons: [...many(MAX_BUTTONS), button('billing', 'billing')] })]))).toEqual([
      'openings.0.buttons',
    ]);
  });

  it(`have a label of 1 to ${MAX_LABEL} characters, spaces aside, kept trimmed`, () => {
    const label = (text: string) =>
      withSteps((s) => [{ ...s[0], buttons: [{ ...s[0].buttons[0], label: text }, s[0].buttons[1]] }, ...s.slice(1)]);
    expect(refused(label('x'.repeat(MAX_LABEL)))).toEqual([]);
    expect(refused(label(`  ${'x'.repeat(MAX_LABEL)} `))).toEqual([]);
    expect(check(label('  Yes  ')).bot.steps[0]?.buttons[0]?.label).toBe('Yes');
    expect(refused(label('x'.repeat(MAX_LABEL + 1)))).toEqual(['steps.0.buttons.0.label']);
    expect(refused(label('   '))).toEqual(['steps.0.buttons.0.label']);
    expect(refused(withOpenings([opening({ buttons: [{ id: 'billing', label: '', next: 'billing' }] })]))).toEqual([
      'openings.0.buttons.0.label',
    ]);
  });

  it('lead to a step of the graph or to the team, and nowhere else', () => {
    const errors = check(withSteps((s) => [{ ...s[0], buttons: [s[0].buttons[0], button('refund', 'nowhere')] }, ...s.slice(1)])).errors;
    expect(errors).toEqual([
      { field: 'steps.0.buttons.1.next', message: 'no step has the key nowhere (name a step, or handover for the team)' },
    ]);
    // Keys are exact: an opening's button to Billing leads nowhere, and so nothing reaches the steps.
    expect(refused(withOpenings([opening({ buttons: [button('billing', 'Billing')] })]))).toEqual([
      'openings.0.buttons.0.next',
      'steps.0.key',
      'steps.1.key',
      'steps.2.key',
      'steps.3.key',
    ]);
  });
});

describe('each step', () => {
  it('goes on in exactly one way: buttons, a question or a hand-over', () => {
    const none = withSteps((s) => [...s.slice(0, 3), { key: 'to_team', blocks: [para('Passing you on.')] }]);
    expect(refused(none)).toEqual(['steps.3']);
    const buttonsAndQuestion = withSteps((s) => [{ ...s[0], question: { kind: 'text', key: 'why', next: 'to_team' } }, ...s.slice(1)]);
    expect(refused(buttonsAndQuestion)).toEqual(['steps.0']);
    const questionAndHandover = withSteps((s) => [s[0], { ...s[1], handover: { teamId: null } }, ...s.slice(2)]);
    expect(refused(questionAndHandover)).toEqual(['steps.1']);
    const buttonsAndHandover = withSteps((s) => [{ ...s[0], handover: { teamId: null } }, ...s.slice(1)]);
    expect(refused(buttonsAndHandover)).toEqual(['steps.0']);
    // No buttons is no way on: an empty list counts for nothing.
    const emptyButtons = withSteps((s) => [...s.slice(0, 3), { ...s[3], buttons: [] }]);
    expect(refused(emptyButtons)).toEqual([]);
    expect(check(none).errors[0]?.message).toBe('must go on in exactly one way: buttons, a question, or a hand-over to the team');
  });

  it('asks for an email, a number or text, collected under a key, and leads on', () => {
    const question = (q: Record<string, unknown>) =>
      refused(withSteps((s) => [s[0], { ...s[1], question: { ...s[1].question, ...q } as StepInput['question'] }, ...s.slice(2)]));
    for (const kind of ['email', 'number', 'text']) expect(question({ kind }), kind).toEqual([]);
    expect(question({ kind: 'date' })).toEqual(['steps.1.question.kind']);
    expect(question({ next: HANDOVER })).toEqual(['steps.2.key']); // the order question is passed by
    expect(question({ next: 'gone' })).toEqual(['steps.1.question.next', 'steps.2.key']);
    expect(
      check(withSteps((s) => [s[0], { ...s[1], question: { ...s[1].question, kind: 'date' as 'text' } }, ...s.slice(2)])).errors,
    ).toEqual([{ field: 'steps.1.question.kind', message: 'must be one of email, number, text' }]);
  });

  it('is reached from an opening’s button, or from a step that is: a lone step or a loop nobody enters is dangling', () => {
    const lonely = withSteps((s) => [...s, { key: 'lonely', blocks: [para('Nobody comes here')], handover: { teamId: null } }]);
    expect(check(lonely).errors).toEqual([{ field: 'steps.4.key', message: 'is dangling: no opening’s button and no step leads to it' }]);
    // Two steps that lead to each other but that nothing enters.
    const loop = withSteps((s) => [
      ...s,
      { key: 'ping', blocks: [para('Ping')], buttons: [button('on', 'pong')] },
      { key: 'pong', blocks: [para('Pong')], buttons: [button('back', 'ping'), button('out', HANDOVER)] },
    ]);
    expect(refused(loop)).toEqual(['steps.4.key', 'steps.5.key']);
    // Entered from the billing step, the same loop is reached, and so is all that follows it.
    const entered = {
      ...loop,
      steps: loop.steps.map((s, i) => (i === 0 ? { ...s, buttons: [...s.buttons!, button('games', 'ping')] } : s)),
    };
    expect(refused(entered)).toEqual([]);
    // A step reached through a question only.
    const viaQuestion = withSteps((s) => [{ ...s[0], buttons: [button('invoice', 'ask_email')] }, ...s.slice(1)]);
    expect(refused(viaQuestion)).toEqual([]);
  });

  it('is reached only from an opening that is there: without openings every step dangles', () => {
    expect(refused({ ...billing(), openings: [] })).toEqual(['steps.0.key', 'steps.1.key', 'steps.2.key', 'steps.3.key']);
    // An inactive opening still reaches its steps (it may be switched on later, or still answer its starts).
    expect(refused(withOpenings([opening({ active: false })]))).toEqual([]);
  });
});

describe('openings', () => {
  it(`are named with 1 to ${MAX_OPENING_NAME} characters, spaces aside`, () => {
    expect(refused(withOpenings([opening({ name: ' x ' })]))).toEqual([]);
    expect(check(withOpenings([opening({ name: ' x ' })])).bot.openings[0]?.name).toBe('x');
    expect(refused(withOpenings([opening({ name: '  ' })]))).toEqual(['openings.0.name']);
    expect(refused(withOpenings([opening({ name: 'x'.repeat(MAX_OPENING_NAME) })]))).toEqual([]);
    expect(refused(withOpenings([opening({ name: 'x'.repeat(MAX_OPENING_NAME + 1) })]))).toEqual(['openings.0.name']);
  });

  it("greet in one of the app's languages, or in every language", () => {
    expect(refused(withOpenings([opening({ language: 'fr' })]))).toEqual([]);
    expect(refused(withOpenings([opening({ language: null })]))).toEqual([]);
    const errors = check(withOpenings([opening({ language: 'de' })])).errors;
    expect(errors).toEqual([
      { field: 'openings.0.language', message: "must be one of the app's languages (en, fr), or null for every language" },
    ]);
    expect(refused(withOpenings([opening({ language: 'fr' })]), { languages: ['en'] })).toEqual(['openings.0.language']);
    expect(refused(withOpenings([opening({ language: 'FR' })]))).toEqual(['openings.0.language']);
  });

  it('are one active a language, and one active for every language; inactive ones are many', () => {
    const both = (a: Partial<OpeningInput>, b: Partial<OpeningInput>) =>
      check(withOpenings([opening(a), opening({ name: 'Second', ...b })])).errors;
    expect(both({ language: 'en' }, { language: 'fr' })).toEqual([]);
    expect(both({ language: null }, { language: 'fr' })).toEqual([]);
    expect(both({ language: 'fr' }, { language: 'fr', active: false })).toEqual([]);
    expect(both({ active: false }, { active: false })).toEqual([]);
    expect(both({ language: 'fr' }, { language: 'fr' })).toEqual([
      { field: 'openings.1.active', message: 'another active opening greets in fr' },
    ]);
    expect(both({ language: null }, { language: null })).toEqual([
      { field: 'openings.1.active', message: 'another active opening is the one for every language' },
    ]);
  });

  it('greet with 1 to 3 paragraphs, and paragraphs only', () => {
    const greeting = (blocks: unknown) => refused(withOpenings([opening({ blocks })]));
    expect(greeting([para('Hi'), para('We answer within a day'), para('How can we help?')])).toEqual([]);
    expect(greeting([para('1'), para('2'), para('3'), para('4')])).toEqual(['openings.0.blocks']);
    expect(greeting([])).toEqual(['openings.0.blocks']);
    expect(greeting([para('Hi'), { type: 'heading', level: 1, spans: [{ text: 'Welcome' }] }])).toEqual(['openings.0.blocks.1.type']);
    expect(greeting([{ type: 'list', items: [{ spans: [{ text: 'a' }] }] }])).toEqual(['openings.0.blocks.0.type']);
  });

  it('name an opening given before once only; new ones have no id', () => {
    const saved = (id: string | null, name: string, language: string | null) => opening({ id, name, language });
    expect(refused(withOpenings([saved('o1', 'A', 'en'), saved('o2', 'B', 'fr'), saved(null, 'C', null), saved(null, 'D', 'xx')]))).toEqual(
      ['openings.3.language'],
    );
    expect(refused(withOpenings([saved('o1', 'A', 'en'), saved('o1', 'B', 'fr')]))).toEqual(['openings.1.id']);
    expect(check(withOpenings([opening({ id: undefined })])).bot.openings[0]?.id).toBeNull();
    expect(check(withOpenings([opening({ id: 'o9' })])).bot.openings[0]?.id).toBe('o9');
  });
});

describe('problems', () => {
  it('are all named at once, each by its member, in the order of the graph', () => {
    const input: HelpBotInput = {
      name: ' ',
      steps: [
        {
          key: 'billing',
          blocks: [para('Invoice or refund?')],
          buttons: [button('invoice', 'ask_email'), { id: 'invoice', label: '', next: 'ask_email' }],
        },
        { key: 'ask_email', blocks: [para('Email?')], question: { kind: 'email', key: 'Email!', next: 'ask_email' } },
        { key: 'both', blocks: [para('x')], question: { kind: 'text', key: 'x', next: HANDOVER }, handover: { teamId: null } },
      ],
      openings: [
        opening({ buttons: [button('billing', 'missing'), button('both', 'both')] }),
        opening({ name: 'Second', blocks: [{ type: 'heading', level: 1, spans: [{ text: 'Hi' }] }], buttons: [button('b', 'billing')] }),
        opening({ name: 'German', language: 'de', active: false, blocks: [para('Hallo')], buttons: [] }),
      ],
    };
    expect(refused(input)).toEqual([
      'name',
      'steps.0.buttons.1.id',
      'steps.0.buttons.1.label',
      'steps.1.question.key',
      'steps.2',
      'openings.0.buttons.0.next',
      'openings.1.active',
      'openings.1.blocks.0.type',
      'openings.2.language',
    ]);
  });
});
