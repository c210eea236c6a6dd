import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherOption } from '../src/domain/surveys/model.js';
import { banner, ownInAppApp } from './support/inapp.js';
import { startTestServer, type TestServer } from './support/server.js';

// People found by their answers to a survey, black box over real HTTP and PostgreSQL: people answer
// a live survey through the guest routes, then staff count an audience on those answers
// (audienceCount) and aim a follow-up message at them, which the check-in answers to those people
// only. A rule naming a survey, question or option the app-mode lacks is refused naming its member.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const SURVEY = {
  steps: [
    {
      id: 'rate',
      questions: [{ id: 'score', type: 'nps', title: 'How likely are you to recommend us?' }],
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
          id: 'uses',
          type: 'multiple',
          title: 'What do you use?',
          options: [
            { id: 'chat', label: 'Chat' },
            { id: 'mail', label: 'Mail' },
            { id: otherOption, label: 'Other' },
          ],
        },
      ],
      next: 'thanks',
    },
    { id: 'thanks', thankYou: true, blocks: [{ type: 'paragraph', spans: [{ text: 'Thanks!' }] }] },
  ],
};

const COUNT = `query($m: ID!, $a: JSON) { audienceCount(appModeId: $m, audience: $a) { count exact } }`;

describe('an audience rule on survey answers', () => {
  it('finds people by a number range, options picked, answered or not and submitted or not; test copies never count', async () => {
    const { own, staff, user } = await ownInAppApp(t);
    const s = await staff.live(own.modes.live, 'survey', { content: SURVEY });
    const people = async (n: number) => {
      const list = [];
      for (let i = 0; i < n; i++) {
        const u = user();
        await u.checkedIn();
        list.push({
          ...u,
          answer: (answers: unknown[]) => u.send('POST', `/guest/v1/surveys/${s.id}/answers`, { answers, variant: 'a' }),
          submit: (answers: unknown[]) => u.send('POST', `/guest/v1/surveys/${s.id}/submit`, { answers, variant: 'a' }),
        });
      }
      return list;
    };
    const [detractor, promoter, started, silent, tester] = await people(5);
    const ok = (r: { status: number; text: string }) => expect(r.status, r.text).toBe(204);
    ok(
      await detractor!.submit([
        { question: 'score', number: 3 },
        { question: 'why', text: 'Slow' },
      ]),
    );
    ok(
      await promoter!.submit([
        { question: 'score', number: 9 },
        { question: 'uses', options: ['mail', otherOption], other: 'Fax' },
      ]),
    );
    ok(await started!.answer([{ question: 'score', number: 8 }]));
    // A test copy submitted as a detractor: no person of the survey's.
    await staff.ok('mutation($m: ID!, $x: String!) { markTestPhone(appModeId: $m, externalId: $x) { label } }', {
      m: own.modes.live,
      x: tester!.sub,
    });
    const copy = (
      await staff.ok('mutation($id: ID!, $x: String!) { sendInAppTest(messageId: $id, externalId: $x) { id } }', {
        id: s.id,
        x: tester!.sub,
      })
    ).sendInAppTest;
    t.clock.advance(21_000);
    await tester!.checkedIn();
    ok(
      await tester!.send('POST', `/guest/v1/surveys/${copy.id}/submit`, {
        answers: [
          { question: 'score', number: 1 },
          { question: 'why', text: 'Test' },
        ],
        variant: 'a',
        test: true,
      }),
    );

    const count = async (audience: unknown) => (await staff.ok(COUNT, { m: own.modes.live, a: audience })).audienceCount.count;
    const on = (rest: Record<string, unknown>) => ({ survey: s.id, ...rest });
    expect(await count(on({ question: 'score', range: { min: 0, max: 6 } }))).toBe(1);
    expect(await count(on({ question: 'score', range: { min: 7, max: 10 } }))).toBe(2);
    expect(await count(on({ question: 'uses', options: ['chat', otherOption] }))).toBe(1);
    expect(await count(on({ question: 'uses', options: ['chat'] }))).toBe(0);
    expect(await count(on({ question: 'why', answered: true }))).toBe(1);
    expect(await count(on({ submitted: true }))).toBe(2);
    expect(await count(on({ answered: true }))).toBe(3);
    // Everyone else of the app-mode: the silent one and the tester.
    expect(await count(on({ answered: false }))).toBe(2);
    // Started and not submitted: the people to remind.
    expect(await count({ all: [on({ answered: true }), on({ submitted: false })] })).toBe(1);

    // A follow-up for the detractors, answered at check-in to them only.
    const followUp = await staff.live(own.modes.live, 'banner', {
      content: banner('Sorry to hear that'),
      audience: on({ question: 'score', range: { min: 0, max: 6 } }),
    });
    t.clock.advance(21_000);
    const shown = async (u: typeof detractor) => {
      u!.newSession();
      return (await u!.checkedIn()).messages.map((m: { id: string }) => m.id);
    };
    expect(await shown(detractor)).toContain(followUp.id);
    for (const u of [promoter, started, silent, tester]) expect(await shown(u)).not.toContain(followUp.id);
    // The reminder for those who started and left, beside it: the check-in reads both needs in one statement.
    const reminder = await staff.live(own.modes.live, 'banner', {
      content: banner('Finish our survey?'),
      audience: { all: [on({ answered: true }), on({ submitted: false })] },
    });
    t.clock.advance(21_000);
    const toStarted = await shown(started);
    expect(toStarted).toContain(reminder.id);
    expect(toStarted).not.toContain(followUp.id);
    expect(await shown(detractor)).not.toContain(reminder.id);
  });

  it('refuses a survey of another app-mode, a question the survey lacks and a form that does not fit, naming the member', async () => {
    const { own, staff } = await ownInAppApp(t);
    const s = await staff.live(own.modes.live, 'survey', { content: SURVEY });
    const elsewhere = await ownInAppApp(t);
    const theirs = await elsewhere.staff.live(elsewhere.own.modes.live, 'survey', { content: SURVEY });
    const plain = await staff.live(own.modes.live, 'banner', { content: banner() });
    const fields = async (audience: unknown) =>
      (
        (await staff.createRefused(own.modes.live, 'banner', { content: banner(), audience })).errors as {
          field: string;
          message: string;
        }[]
      ).map((e) => `${e.field}: ${e.message}`);
    expect(
      await fields({
        all: [
          { survey: theirs.id, submitted: true },
          { survey: plain.id, submitted: true },
          { survey: s.id, question: 'nope', answered: true },
          { survey: s.id, question: 'why', range: { min: 0, max: 6 } },
          { survey: s.id, question: 'uses', options: ['fax'] },
        ],
      }),
    ).toEqual([
      'audience.all.0.survey: names no survey of this app',
      'audience.all.1.survey: names no survey of this app',
      'audience.all.2.question: names no question of this survey',
      'audience.all.3.range: goes with a rating or NPS question, not long_text',
      'audience.all.4.options: names no option of question uses: fax',
    ]);
    const refused = await staff.refused(COUNT, { m: own.modes.live, a: { survey: s.id, question: 'score', range: { min: 0, max: 11 } } });
    expect(refused.errors!.map((e: { field: string }) => e.field)).toEqual(['audience.range']);
  });
});
