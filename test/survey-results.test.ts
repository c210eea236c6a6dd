import { randomUUID } from 'node:crypto';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactExportToken } from '../src/domain/contacts/export-address.js';
import { CSV_PAGE, SURVEY_EXPORT_SECONDS } from '../src/domain/inapp/survey-export.js';
import { TEXT_EXAMINED } from '../src/domain/inapp/survey-text-answers.js';
import { otherOption } from '../src/domain/surveys/model.js';
import { staffSocket } from './support/graphql.js';
import { banner, ownInAppApp } from './support/inapp.js';
import { startTestServer, type TestServer } from './support/server.js';

// A survey's results for staff, black box over real HTTP, WebSocket and PostgreSQL: live (the
// results, then the results again after answers, coalesced, resumable), the words people wrote
// (paged, newest first, searched literally, bounded), and the responses as a CSV download (signed
// address, streamed over several read pages, formulas kept out).

let t: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
});

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
          id: 'praise',
          type: 'single',
          title: 'What do you like most?',
          options: [
            { id: 'speed', label: 'Speed' },
            { id: otherOption, label: 'Other' },
          ],
        },
      ],
      next: 'thanks',
    },
    { id: 'thanks', thankYou: true, blocks: [{ type: 'paragraph', spans: [{ text: 'Thanks!' }] }] },
  ],
};

async function liveSurvey() {
  const app = await ownInAppApp(t);
  const m = await app.staff.live(app.own.modes.live, 'survey', { content: SURVEY });
  const person = async () => {
    const u = app.user();
    await u.checkedIn();
    return {
      ...u,
      answer: (answers: unknown[]) => u.send('POST', `/guest/v1/surveys/${m.id}/answers`, { answers, variant: 'a' }),
      submit: (answers: unknown[]) => u.send('POST', `/guest/v1/surveys/${m.id}/submit`, { answers, variant: 'a' }),
    };
  };
  /** A detractor's answers, given as they go (and submitted when asked). */
  const detractor = async (why: string, submit = false) => {
    const u = await person();
    const answers = [
      { question: 'score', number: 3 },
      { question: 'why', text: why },
    ];
    const r = await (submit ? u.submit(answers) : u.answer(answers));
    expect(r.status, r.text).toBe(204);
    return u;
  };
  return { ...app, m, person, detractor };
}

type ResultsEvent = { version: string; reload: boolean; results: { variant: string; shown: number; started: number; completed: number }[] };

/** Follows surveyResultsChanged; `seen` fills as events come. */
function follow(token: string, messageId: string, after?: string) {
  const client = staffSocket(t.url, token);
  clients.push(client);
  const seen: ResultsEvent[] = [];
  const errors: unknown[] = [];
  const stop = client.subscribe<{ surveyResultsChanged: ResultsEvent }>(
    {
      query: `subscription($id: ID!, $after: String) { surveyResultsChanged(messageId: $id, after: $after) { version reload results { variant shown started completed } } }`,
      variables: { id: messageId, after: after ?? null },
    },
    {
      next: ({ data, errors: e }) => (e ? errors.push(...e) : data && seen.push(data.surveyResultsChanged)),
      error: (e) => errors.push(e),
      complete: () => {},
    },
  );
  return { seen, errors, stop };
}

const started = (e: ResultsEvent | undefined) => e?.results[0]?.started ?? 0;

describe("a survey's results live", () => {
  it('come first as they are, then again after each answer and submit, from the guest routes; a test copy tells nothing', async () => {
    const { own, m, person, staff } = await liveSurvey();
    const live = follow(own.owner, m.id);
    await expect.poll(() => live.seen.length).toBe(1);
    expect(live.seen[0]).toMatchObject({ reload: true, results: [{ variant: 'a', shown: 0, started: 0, completed: 0 }] });

    const u = await person();
    expect((await u.answer([{ question: 'score', number: 9 }])).status).toBe(204);
    await expect.poll(() => started(live.seen.at(-1))).toBe(1);
    expect(live.seen.at(-1)).toMatchObject({ reload: false, results: [{ variant: 'a', shown: 1, started: 1, completed: 0 }] });
    expect(
      (
        await u.submit([
          { question: 'score', number: 9 },
          { question: 'praise', options: ['speed'] },
        ])
      ).status,
    ).toBe(204);
    await expect.poll(() => live.seen.at(-1)?.results[0]?.completed).toBe(1);
    // Versions go up, as every live topic's do.
    const versions = live.seen.map((e) => e.version);
    expect([...versions].sort()).toEqual(versions);
    expect(live.errors).toEqual([]);

    // A test copy's answers are no results: they write no survey.answered row.
    const rows = () => t.svc.db.outboxEvent.count({ where: { appModeId: own.modes.live, topic: 'survey.answered' } });
    expect(await rows()).toBe(2);
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
    await tester.checkedIn();
    const test = await tester.send('POST', `/guest/v1/surveys/${copy.id}/submit`, {
      answers: [
        { question: 'score', number: 1 },
        { question: 'why', text: 'Testing' },
      ],
      variant: 'a',
      test: true,
    });
    expect(test.status, test.text).toBe(204);
    expect(await rows()).toBe(2);
    live.stop();
  });

  it('fold a burst of answers into few answers, each with everything before its version, and resume after a version', async () => {
    const { own, m, detractor } = await liveSurvey();
    const first = follow(own.owner, m.id);
    await expect.poll(() => first.seen.length).toBe(1);
    const version = first.seen[0]!.version;
    first.stop();

    // Thirty people answer while no one follows; a follower resuming after the version gets what it missed.
    const burst = 30;
    for (let i = 0; i < burst; i++) await detractor(`Reason ${i}`);
    const resumed = follow(own.owner, m.id, version);
    await expect.poll(() => resumed.seen.length).toBeGreaterThan(0);
    // Its first answer is no reload, and already holds all thirty: it was read after they were.
    expect(resumed.seen[0]).toMatchObject({ reload: false, results: [{ started: burst }] });
    await detractor('One more');
    await expect.poll(() => started(resumed.seen.at(-1))).toBe(burst + 1);
    // Thirty-one rows, but the answers came in a few reads, not one per row; each holds all before it, none goes back.
    expect(resumed.seen.length).toBeLessThanOrEqual(3);
    const counts = resumed.seen.map((e) => started(e));
    expect(counts.every((n) => n === burst || n === burst + 1)).toBe(true);
    expect(counts).toEqual([...counts].sort((a, b) => a! - b!));
    expect(resumed.errors).toEqual([]);
    resumed.stop();
  });

  it('are refused for another kind of message and to another workspace', async () => {
    const { own, m, staff } = await liveSurvey();
    const plain = await staff.live(own.modes.live, 'banner', { content: banner() });
    const refusal = async (token: string, id: string) => {
      const live = follow(token, id);
      await expect.poll(() => live.errors.length).toBeGreaterThan(0);
      return JSON.stringify(live.errors);
    };
    expect(await refusal(own.owner, plain.id)).toContain('not_a_survey');
    const stranger = await ownInAppApp(t);
    expect(await refusal(stranger.own.owner, m.id)).toContain('not_found');
  });
});

const TEXT = `query($id: ID!, $q: String!, $s: String, $n: Int, $a: String) {
  surveyTextAnswers(messageId: $id, question: $q, search: $s, first: $n, after: $a) {
    edges { node { contactId text other variant answeredAt submitted } cursor } pageInfo { hasNextPage endCursor } } }`;

describe("a question's text answers", () => {
  it('list the words, the most recently answered first, paged, searched in any case with % and _ taken literally, test copies left out', async () => {
    const { m, detractor, person, staff } = await liveSurvey();
    const words = ['Too SLOW to load', '100% broken', '1000 problems', 'snake_case names', 'it is slow'];
    for (const w of words) {
      t.clock.advance(1000);
      await detractor(w, w === 'it is slow');
    }
    const list = async (vars: Record<string, unknown>) => (await staff.ok(TEXT, { id: m.id, q: 'why', ...vars })).surveyTextAnswers;
    const texts = (page: { edges: { node: { text: string } }[] }) => page.edges.map((e) => e.node.text);
    const first = await list({ n: 2 });
    expect(texts(first)).toEqual(['it is slow', 'snake_case names']);
    expect(first.edges[0].node).toMatchObject({ other: false, variant: 'a', submitted: true });
    expect(first.edges[1].node.submitted).toBe(false);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = await list({ a: first.pageInfo.endCursor });
    expect(texts(rest)).toEqual(['1000 problems', '100% broken', 'Too SLOW to load']);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    expect(texts(await list({ s: 'slow' }))).toEqual(['it is slow', 'Too SLOW to load']);
    expect(texts(await list({ s: '0%' }))).toEqual(['100% broken']);
    expect(texts(await list({ s: 'e_c' }))).toEqual(['snake_case names']);
    expect(texts(await list({ s: '%' }))).toEqual(['100% broken']);
    expect(texts(await list({ s: '\\' }))).toEqual([]);

    // Answered again: the response moves to the top.
    t.clock.advance(1000);
    const again = await person();
    await again.answer([
      { question: 'score', number: 9 },
      { question: 'praise', options: [otherOption], other: '=The team' },
    ]);
    const other = (await staff.ok(TEXT, { id: m.id, q: 'praise' })).surveyTextAnswers;
    expect(other.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { contactId: expect.any(String), text: '=The team', other: true, variant: 'a', answeredAt: expect.any(String), submitted: false },
    ]);
  });

  it('refuse a question that takes no words, one the survey lacks, a long search and another kind, naming the argument', async () => {
    const { own, m, staff } = await liveSurvey();
    expect(await staff.refused(TEXT, { id: m.id, q: 'score' })).toMatchObject({ code: 'invalid_request', errors: [{ field: 'question' }] });
    expect(await staff.refused(TEXT, { id: m.id, q: 'nope' })).toMatchObject({ code: 'invalid_request', errors: [{ field: 'question' }] });
    expect(await staff.refused(TEXT, { id: m.id, q: 'why', s: 'x'.repeat(201) })).toMatchObject({ errors: [{ field: 'search' }] });
    expect(await staff.refused(TEXT, { id: m.id, q: 'why', a: 'not-a-cursor' })).toMatchObject({ errors: [{ field: 'after' }] });
    const plain = await staff.live(own.modes.live, 'banner', { content: banner() });
    expect(await staff.refused(TEXT, { id: plain.id, q: 'why' })).toMatchObject({ code: 'not_a_survey' });
    const stranger = await ownInAppApp(t);
    expect(await stranger.staff.refused(TEXT, { id: m.id, q: 'why' })).toMatchObject({ code: 'not_found' });
  });

  it(`examine at most ${TEXT_EXAMINED} responses a page: a rare search answers a short page with a cursor to go on`, async () => {
    const { own, m, staff } = await liveSurvey();
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000);
    // Many responses, the two oldest holding the needle (seeded straight into the table: the guest route is tested above).
    const count = TEXT_EXAMINED + 20;
    await t.svc.db.surveyResponse.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        messageId: m.id,
        contactId: randomUUID(),
        appModeId: own.modes.live,
        variant: 'a',
        answers: [
          { question: 'score', title: 'Score', number: 2 },
          { question: 'why', title: 'Why', text: i < 2 ? `a needle ${i}` : 'hay' },
        ],
        path: ['rate', 'detractor', 'thanks'],
        startedAt: at(i),
        updatedAt: at(i),
      })),
    });
    const search = async (a?: string) => (await staff.ok(TEXT, { id: m.id, q: 'why', s: 'NEEDLE', n: 10, a })).surveyTextAnswers;
    const first = await search();
    expect(first.edges).toEqual([]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const next = await search(first.pageInfo.endCursor);
    expect(next.edges.map((e: { node: { text: string } }) => e.node.text)).toEqual(['a needle 1', 'a needle 0']);
    expect(next.pageInfo.hasNextPage).toBe(false);
  });
});

/** Reads CSV as RFC 4180 writes it: quoted cells with doubled quotes and line ends inside. */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') (row.push(cell), (cell = ''));
    else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      out.push(row);
      ((row = []), (cell = ''), i++);
    } else cell += c;
  }
  expect(cell).toBe('');
  expect(row).toEqual([]);
  return out;
}

const EXPORT = 'mutation($id: ID!) { exportSurveyResponses(messageId: $id) { url expiresAt } }';

describe("a survey's responses as CSV", () => {
  it(`download streamed from a signed address: one row per response over several reads of ${CSV_PAGE}, answers as words, formulas kept out`, async () => {
    const { own, m, person, detractor, staff } = await liveSurvey();
    const t0 = t.clock.now().getTime();
    const iso = (ms: number) => new Date(t0 + ms).toISOString();
    await detractor('=HYPERLINK("http://evil.example","click"), then\n"quotes"', true);
    t.clock.advance(1000);
    const promoter = await person();
    await promoter.submit([
      { question: 'score', number: 10 },
      { question: 'praise', options: [otherOption], other: '@the team' },
    ]);
    t.clock.advance(1000);
    const partial = await person();
    await partial.answer([{ question: 'score', number: 8 }]);
    // Many more, started later: more rows than one read of the table.
    const later = t0 + 86_400_000;
    const seeded = CSV_PAGE + 7;
    await t.svc.db.surveyResponse.createMany({
      data: Array.from({ length: seeded }, (_, i) => ({
        messageId: m.id,
        contactId: randomUUID(),
        appModeId: own.modes.live,
        variant: 'a',
        answers: [{ question: 'score', title: 'Score', number: i % 11 }],
        path: ['rate'],
        startedAt: new Date(later + i * 1000),
        updatedAt: new Date(later + i * 1000),
      })),
    });
    // A test copy's response is no response of the survey.
    await t.svc.db.surveyResponse.create({
      data: {
        messageId: m.id,
        contactId: randomUUID(),
        appModeId: own.modes.live,
        variant: 'a',
        test: true,
        answers: [],
        startedAt: new Date(later),
        updatedAt: new Date(later),
      },
    });

    const { url, expiresAt } = (await staff.ok(EXPORT, { id: m.id })).exportSurveyResponses;
    expect(new Date(expiresAt).getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(SURVEY_EXPORT_SECONDS * 1000 + 1000);
    // The address is the service's base address; the test server listens on its own port.
    const res = await fetch(`${t.url}${new URL(url).pathname}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="survey-${m.id}.csv"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // Written as it is read: no length known beforehand.
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const bytes = Buffer.from(await res.arrayBuffer());
    // UTF-8 with a byte order mark, so spreadsheets read it as UTF-8.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const table = parseCsv(bytes.subarray(3).toString('utf8'));
    expect(table[0]).toEqual([
      'started_at',
      'submitted_at',
      'variant',
      'How likely are you to recommend us?',
      'What went wrong?',
      'What do you like most?',
    ]);
    expect(table).toHaveLength(1 + 3 + seeded);
    expect(table.slice(1, 4)).toEqual([
      [iso(0), iso(0), 'a', '3', `'=HYPERLINK("http://evil.example","click"), then\n"quotes"`, ''],
      [iso(1000), iso(1000), 'a', '10', '', `${otherOption} (@the team)`],
      [iso(2000), '', 'a', '8', '', ''],
    ]);
    // In the order started, every seeded one once.
    const rest = table.slice(4);
    expect(rest.map((r) => r[0])).toEqual(Array.from({ length: seeded }, (_, i) => new Date(later + i * 1000).toISOString()));
    expect(rest.map((r) => r[3])).toEqual(Array.from({ length: seeded }, (_, i) => String(i % 11)));
  });

  it('refuse an address that expired, was altered or is not a survey export’s; 404 once the survey is gone', async () => {
    const { own, m, staff } = await liveSurvey();
    const { url } = (await staff.ok(EXPORT, { id: m.id })).exportSurveyResponses;
    const path = new URL(url).pathname;
    const token = path.split('/').at(-1)!;
    const get = async (p: string) => {
      const r = await fetch(`${t.url}${p}`);
      return { status: r.status, code: ((await r.json()) as { code?: string }).code };
    };
    const [body, mac] = token.split('.');
    expect(await get(path.replace(token, `${body}x.${mac}`))).toEqual({ status: 403, code: 'address_invalid' });
    const contact = contactExportToken(t.svc, {
      appModeId: own.modes.live,
      contactId: randomUUID(),
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(await get(path.replace(token, contact))).toEqual({ status: 403, code: 'address_invalid' });
    // A draft survey deleted: the address names a survey no longer there.
    const draft = await staff.create(own.modes.live, 'survey', { content: SURVEY });
    const gone = new URL((await staff.ok(EXPORT, { id: draft.id })).exportSurveyResponses.url).pathname;
    await staff.ok('mutation($id: ID!) { deleteInAppMessage(id: $id) }', { id: draft.id });
    expect(await get(gone)).toEqual({ status: 404, code: 'not_found' });
    t.clock.advance(SURVEY_EXPORT_SECONDS * 1000 + 1000);
    expect(await get(path)).toEqual({ status: 403, code: 'address_expired' });
    // Another kind of message has no responses; another workspace's staff get no address.
    const plain = await staff.live(own.modes.live, 'banner', { content: banner() });
    expect(await staff.refused(EXPORT, { id: plain.id })).toMatchObject({ code: 'not_a_survey' });
    const stranger = await ownInAppApp(t);
    expect(await stranger.staff.refused(EXPORT, { id: m.id })).toMatchObject({ code: 'not_found' });
  });
});
