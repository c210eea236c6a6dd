import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OTHER_RUNES, MAX_SHORT_ANSWER_RUNES, otherOption } from '../src/domain/surveys/model.js';
import { call } from './support/http.js';
import { ownInAppApp } from './support/inapp.js';
import { startTestServer, type TestServer } from './support/server.js';

// Surveys, black box over real HTTP and PostgreSQL: staff write one through the in-app message
// mutations (a broken one refused naming its step); the person answers as they go (branching by a
// range and by values, a later answer replacing the earlier), then submits: typed attributes
// written, the survey completed, survey.completed in the outbox; each 409 and 422; runes counted
// as code points; a test copy writing nothing; 50 submits at once; export and erase.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const para = (text: string) => [{ type: 'paragraph', spans: [{ text }] }];
const SURVEY = {
  steps: [
    {
      id: 'rate',
      questions: [{ id: 'score', type: 'nps', title: 'How likely are you to recommend us?', attribute: 'nps_score' }],
      branches: [
        { question: 'score', range: { min: 0, max: 6 }, to: 'detractor' },
        { question: 'score', range: { min: 7, max: 10 }, to: 'promoter' },
      ],
    },
    { id: 'detractor', questions: [{ id: 'why', type: 'long_text', title: 'What went wrong?' }], next: 'thanks' },
    {
      id: 'promoter',
      questions: [
        {
          id: 'praise',
          type: 'single',
          title: 'What do you like most?',
          attribute: 'liked',
          options: [
            { id: 'speed', label: 'Speed' },
            { id: 'price', label: 'Price' },
            { id: otherOption, label: 'Other' },
          ],
        },
        {
          id: 'uses',
          type: 'multiple',
          title: 'What do you use?',
          required: false,
          attribute: 'uses',
          options: [
            { id: 'chat', label: 'Chat' },
            { id: 'mail', label: 'Mail' },
          ],
        },
      ],
      branches: [{ question: 'praise', values: ['speed'], to: 'speedy' }],
      next: 'thanks',
    },
    { id: 'speedy', questions: [{ id: 'fast', type: 'short_text', title: 'What felt fast?', attribute: 'fast_note' }] },
    { id: 'thanks', thankYou: true, blocks: para('Thank you!') },
  ],
};

async function liveSurvey() {
  const app = await ownInAppApp(t);
  const m = await app.staff.live(app.own.modes.live, 'survey', { content: SURVEY });
  const person = async () => {
    const u = app.user();
    const checkin = await u.checkedIn();
    return {
      ...u,
      checkin,
      answer: (answers: unknown[], extra: Record<string, unknown> = {}) =>
        u.send('POST', `/guest/v1/surveys/${extra.id ?? m.id}/answers`, { answers, variant: 'a', ...extra, id: undefined }),
      submit: (answers: unknown[], extra: Record<string, unknown> = {}) =>
        u.send('POST', `/guest/v1/surveys/${extra.id ?? m.id}/submit`, { answers, variant: 'a', ...extra, id: undefined }),
    };
  };
  return { ...app, m, person };
}
const kept = (messageId: string) => t.svc.db.surveyResponse.findFirstOrThrow({ where: { messageId } });
const fields = (r: { json: { errors: { field: string }[] } }) => r.json.errors.map((e) => e.field);
const attributesOf = async (appModeId: string, externalId: string) =>
  (await t.svc.db.contact.findUniqueOrThrow({ where: { appModeId_externalId: { appModeId, externalId } } })).attributes;

describe('surveys', () => {
  it('refuse a looping or dead-end survey naming the step', async () => {
    const { staff, own } = await ownInAppApp(t);
    const looping = structuredClone(SURVEY);
    looping.steps[3]!.next = 'rate';
    expect(await staff.createRefused(own.modes.live, 'survey', { content: looping })).toMatchObject({
      code: 'invalid_request',
      errors: [{ field: 'content.steps.3.next', message: 'step speedy leads back to step rate: a survey may not loop' }],
    });
    const deadEnd = { steps: [...SURVEY.steps.slice(0, 3), SURVEY.steps[4], SURVEY.steps[3]] };
    expect(await staff.createRefused(own.modes.live, 'survey', { content: deadEnd })).toMatchObject({
      errors: [{ field: 'content.steps.4.next', message: expect.stringMatching(/^step speedy is a dead end/) }],
    });
    // With strict data on, a question names only a defined attribute.
    await staff.ok('mutation($m: ID!) { updateAppSettings(appModeId: $m, input: { strictData: true }) { strictData } }', {
      m: own.modes.live,
    });
    expect(
      (await staff.createRefused(own.modes.live, 'survey', { content: SURVEY })).errors!.map((e: { field: string }) => e.field),
    ).toEqual([
      'content.steps.0.questions.0.attribute',
      'content.steps.2.questions.0.attribute',
      'content.steps.2.questions.1.attribute',
      'content.steps.3.questions.0.attribute',
    ]);
  });

  it('branch by range and by value, replace earlier answers, then submit: typed attributes, completed, survey.completed; 409 after', async () => {
    const { own, m, person, staff } = await liveSurvey();
    const u = await person();
    expect(u.checkin.messages).toMatchObject([{ id: m.id, kind: 'survey', survey: { steps: expect.any(Array) } }]);
    // A detractor's path, then a later score replaces the earlier and leaves the detractor's step.
    expect((await u.answer([{ question: 'score', number: 3 }])).status).toBe(204);
    expect((await u.answer([{ question: 'why', text: 'Too slow' }])).status).toBe(204);
    expect((await kept(m.id)).path).toEqual(['rate', 'detractor', 'thanks']);
    expect((await u.answer([{ question: 'score', number: 9 }])).status).toBe(204);
    expect(await kept(m.id)).toMatchObject({ answers: [{ question: 'score', number: 9 }], path: ['rate', 'promoter'] });
    const off = await u.answer([{ question: 'why', text: 'Too slow' }]);
    expect([off.status, off.json.code, fields(off)]).toEqual([422, 'answer_invalid', ['answers.0.question']]);
    expect(off.json.errors[0].message).toBe('question why is off the path the answers take');
    // By value: speed goes on to its own step.
    expect((await u.answer([{ question: 'praise', options: ['speed'] }])).status).toBe(204);
    expect((await kept(m.id)).path).toEqual(['rate', 'promoter', 'speedy']);
    const submitted = await u.submit([
      { question: 'score', number: 9 },
      { question: 'praise', options: ['speed'] },
      { question: 'uses', options: ['chat', 'mail'] },
      { question: 'fast', text: ' Checkout ' },
    ]);
    expect(submitted.status, submitted.text).toBe(204);
    expect(await attributesOf(own.modes.live, u.sub)).toEqual({
      nps_score: 9,
      liked: 'speed',
      uses: ['chat', 'mail'],
      fast_note: 'Checkout',
    });
    const defs = await t.svc.db.attributeDefinition.findMany({ where: { appModeId: own.modes.live }, orderBy: { name: 'asc' } });
    expect(defs.map((d) => [d.name, d.type])).toEqual([
      ['fast_note', 'string'],
      ['liked', 'string'],
      ['nps_score', 'number'],
      ['uses', 'list'],
    ]);
    const events = await t.svc.db.outboxEvent.findMany({ where: { appModeId: own.modes.live, topic: 'survey.completed' } });
    expect(events.map((e) => [e.externalId, e.data])).toEqual([
      [
        u.sub,
        {
          message_id: m.id,
          variant: 'a',
          completed_at: expect.any(String),
          answers: [
            { question: 'score', number: 9 },
            { question: 'praise', options: ['speed'] },
            { question: 'uses', options: ['chat', 'mail'] },
          ],
        },
      ],
    ]);
    const stats = await staff.ok('query($id: ID!) { inAppMessage(id: $id) { stats { variants { variant sent completed } } } }', {
      id: m.id,
    });
    expect(stats.inAppMessage.stats.variants).toEqual([{ variant: 'a', sent: 1, completed: 1 }]);
    for (const again of [await u.submit([{ question: 'score', number: 9 }]), await u.answer([{ question: 'score', number: 1 }])])
      expect([again.status, again.json.code]).toEqual([409, 'survey_submitted']);
  });

  it('refuse answers that do not fit, 422 naming the question; count runes, not UTF-16 units', async () => {
    const { m, person } = await liveSurvey();
    const u = await person();
    const refused = async (answers: unknown[], submit = false) => {
      const r = await (submit ? u.submit(answers) : u.answer(answers));
      expect(r.status, r.text).toBe(422);
      return [fields(r), r.json.errors[0].message];
    };
    expect(await refused([{ question: 'score', number: 11 }])).toEqual([
      ['answers.0.number'],
      'question score takes a whole number from 0 to 10',
    ]);
    expect(
      await refused([
        { question: 'score', number: 9 },
        { question: 'praise', options: ['speedy'] },
      ]),
    ).toEqual([['answers.1.options'], 'question praise has no option speedy']);
    expect(await refused([{ question: 'score', number: 9 }], true)).toEqual([
      ['answers'],
      'question praise is required on the path the answers take',
    ]);
    const toFast = [
      { question: 'score', number: 9 },
      { question: 'praise', options: ['speed'] },
    ];
    // 👍🏽 is two code points (four UTF-16 units); é written as e and a combining mark is two code points.
    const thumbs = '👍🏽'.repeat(MAX_SHORT_ANSWER_RUNES / 2);
    const combining = 'e\u0301'.repeat(MAX_SHORT_ANSWER_RUNES / 2);
    expect(thumbs.length).toBe(MAX_SHORT_ANSWER_RUNES * 2);
    for (const text of [thumbs, combining]) expect((await u.answer([...toFast, { question: 'fast', text }])).status).toBe(204);
    for (const text of [`${thumbs}x`, `${combining}\u0301`])
      expect(await refused([...toFast, { question: 'fast', text }])).toEqual([
        ['answers.2.text'],
        `question fast takes at most ${MAX_SHORT_ANSWER_RUNES} characters`,
      ]);
    const other = (words: string) => [
      { question: 'score', number: 8 },
      { question: 'praise', options: [otherOption], other: words },
    ];
    expect((await u.answer(other('😀'.repeat(MAX_OTHER_RUNES)))).status).toBe(204);
    expect((await refused(other(`${'😀'.repeat(MAX_OTHER_RUNES)}x`)))[0]).toEqual(['answers.1.other']);
    // Nothing refused was kept.
    expect((await kept(m.id)).answers).toEqual([
      { question: 'score', title: 'How likely are you to recommend us?', number: 8 },
      { question: 'praise', title: 'What do you like most?', options: [otherOption], other: '😀'.repeat(MAX_OTHER_RUNES) },
    ]);
  });

  it('answer 404 for a survey that does not exist, is not live or was never shown, or while in-app messages are off', async () => {
    const { own, m, person, staff, user } = await liveSurvey();
    const u = await person();
    const stranger = user();
    expect((await stranger.send('POST', `/guest/v1/surveys/${m.id}/answers`, { answers: [], variant: 'a' })).status).toBe(404);
    expect((await u.answer([], { id: 'no-such-survey' })).status).toBe(404);
    expect((await u.submit([], { id: 'no-such-copy', test: true })).status).toBe(404);
    await staff.state(m.id, 'paused');
    expect((await u.answer([{ question: 'score', number: 1 }])).status).toBe(404);
    await staff.state(m.id, 'live');
    await staff.ok('mutation($m: ID!) { updateAppSettings(appModeId: $m, input: { inappOn: false }) { inappOn } }', { m: own.modes.live });
    expect((await u.answer([{ question: 'score', number: 1 }])).status).toBe(404);
  });

  it('take one of 50 identical submits at once (the others 409), and a test copy writes nothing', async () => {
    const { own, m, person, staff } = await liveSurvey();
    const u = await person();
    const all = [
      { question: 'score', number: 2 },
      { question: 'why', text: 'Slow' },
    ];
    const statuses = (await Promise.all(Array.from({ length: 50 }, () => u.submit(all)))).map((r) => r.status).sort();
    expect(statuses).toEqual([204, ...Array(49).fill(409)]);
    expect(await t.svc.db.outboxEvent.count({ where: { appModeId: own.modes.live, topic: 'survey.completed' } })).toBe(1);

    const tester = await person();
    await staff.ok('mutation($m: ID!, $x: String!) { markTestPhone(appModeId: $m, externalId: $x) { label } }', {
      m: own.modes.live,
      x: tester.sub,
    });
    const copy = (
      await staff.ok('mutation($id: ID!, $x: String!) { sendInAppTest(messageId: $id, externalId: $x) { id } }', {
        id: m.id,
        x: tester.sub,
      })
    ).sendInAppTest;
    t.clock.advance(21_000);
    expect((await tester.checkedIn()).messages[0]).toMatchObject({ id: copy.id, kind: 'survey', test: true });
    expect((await tester.submit(all, { id: copy.id, test: true })).status).toBe(204);
    expect(await attributesOf(own.modes.live, tester.sub)).toEqual({});
    expect(await t.svc.db.outboxEvent.count({ where: { appModeId: own.modes.live, topic: 'survey.completed' } })).toBe(1);
    expect((await t.svc.db.inAppTestSend.findUniqueOrThrow({ where: { id: copy.id } })).completedAt).not.toBeNull();
    expect((await tester.submit(all, { id: copy.id, test: true })).status).toBe(409);
  });

  it('fill the export’s surveyResponses and are removed by an erase', async () => {
    const { own, person } = await liveSurvey();
    const u = await person();
    await u.submit([
      { question: 'score', number: 10 },
      { question: 'praise', options: [otherOption], other: 'The team' },
    ]);
    const server = { Authorization: `Bearer ${own.live.server_key}` };
    const exported = await call(t.url, 'GET', `/server/v1/contacts/${u.sub}/export`, { headers: server });
    expect(exported.json.surveyResponses).toEqual([
      { question: 'How likely are you to recommend us?', answer: '10' },
      { question: 'What do you like most?', answer: `${otherOption} (The team)` },
    ]);
    expect((await call(t.url, 'DELETE', `/server/v1/contacts/${u.sub}`, { headers: server })).status).toBe(202);
    await t.engine.runDue();
    const contactIds = (await t.svc.db.contact.findMany({ where: { externalId: u.sub } })).map((c) => c.id);
    expect(contactIds).toEqual([]);
    expect(await t.svc.db.surveyResponse.count({ where: { appModeId: own.modes.live } })).toBe(0);
    const request = await t.svc.db.eraseRequest.findFirstOrThrow({ where: { appId: own.appId, state: 'done' } });
    expect(request.removed).toMatchObject({ surveyResponses: 1 });
  });
});
