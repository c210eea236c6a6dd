import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingBot, botOf, para } from './support/bot.js';
import { call } from './support/http.js';
import { memberOf, staffApp, unique, type StaffApp } from './support/factories.js';
import { guestOf, teamPart, type Guest } from './support/messenger.js';
import { startTestServer, type TestServer } from './support/server.js';

// The help bot, black-box: staff save its graph on the staff API (checked as a whole), a
// conversation started from an opening's button is answered by the bot at once, the person's
// answers move it on (buttons, values checked and collected), and it hands over to the team.

let t: TestServer;
let app: StaffApp;
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
});
afterAll(() => t?.close());

const bot = botOf(
  () => t,
  () => app,
);
const person = (sub = unique('user')) => guestOf(t, app.live, sub);
const answer = (g: Guest, id: string, body: Record<string, unknown>) => g.send('POST', `/guest/v1/conversations/${id}/bot`, body);

/** A new bot graph of the app's live mode (with a team of its own for the hand-over); its opening. */
async function savedBot(teamName = unique('Billing')) {
  const team = await bot.team(teamName);
  const saved = await bot.saved(billingBot(team));
  return { team, opening: saved.openings[0] as { id: string; version: number } };
}

/** A conversation the person started by tapping the opening's button. */
async function startedFrom(g: Guest, opening: { id: string; version: number }, button = 'billing') {
  const r = await g.start({ text: '', button, opening: { id: opening.id, version: opening.version } });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

describe('starting from an opening', () => {
  it("gets the bot's step at once, by the bot's name, with its buttons and the question awaited", async () => {
    const { opening } = await savedBot();
    const g = person();
    const c = await startedFrom(g, opening);
    expect(c.parts).toMatchObject([
      { kind: 'message', author: { kind: 'user' }, button: 'billing', blocks: [para('Billing')] },
      {
        kind: 'bot',
        author: { kind: 'bot', name: 'Sunny' },
        blocks: [para('Is it about an invoice or a refund?')],
        buttons: [
          { id: 'invoice', label: 'An invoice' },
          { id: 'refund', label: 'A refund' },
        ],
      },
    ]);
    expect(c.bot_part_id).toBe(c.parts[1].id);
    expect(c.preview).toBe('Is it about an invoice or a refund?');
    // The opening as shown is kept; the inbox has the bot's part too.
    const row = await t.svc.db.conversation.findUniqueOrThrow({ where: { id: c.id } });
    expect(row.opening).toEqual({ id: opening.id, version: opening.version });
    const staff = await bot.ok('query($id: ID!) { conversation(id: $id) { parts { edges { node { kind author { name } } } } } }', {
      id: c.id,
    });
    expect(staff.conversation.parts.edges.map((e: any) => e.node)).toEqual([
      { kind: 'message', author: { name: expect.any(String) } },
      { kind: 'bot', author: { name: 'Sunny' } },
    ]);
    expect(
      await t.svc.db.outboxEvent.count({ where: { topic: 'inbox.changed', data: { path: ['part', 'id'], equals: c.parts[1].id } } }),
    ).toBe(1);
  });

  it('hands over at once for a button that leads to the team, and starts without the bot for a button it never saved', async () => {
    const { opening } = await savedBot();
    const g = person();
    const c = await startedFrom(g, opening, 'human');
    expect(c.parts.map((p: any) => [p.kind, p.event ?? null, p.author.kind])).toEqual([
      ['message', null, 'user'],
      ['event', 'handed_over', 'bot'],
    ]);
    expect(c.bot_part_id).toBeNull();
    const unknown = await g.start({ text: '', button: 'no_such_button', opening: { id: opening.id, version: opening.version } });
    expect(unknown.status).toBe(201);
    expect(unknown.json.parts).toMatchObject([{ kind: 'message', button: 'no_such_button', blocks: [] }]);
  });

  it('keeps the version the person was shown: a button of an earlier version still answers', async () => {
    const { opening } = await savedBot();
    const graph = billingBot(null);
    const changed = await bot.saved({
      ...graph,
      openings: [{ ...graph.openings[0], id: opening.id, buttons: [{ id: 'billing2', label: 'Money matters', next: 'billing' }] }],
    });
    expect(changed.openings[0]).toMatchObject({ id: opening.id, version: opening.version + 1 });
    // A save that changes nothing the person sees keeps the version.
    const same = await bot.saved({
      ...graph,
      openings: [
        {
          id: opening.id,
          name: 'Renamed',
          active: true,
          blocks: [para('Hi! How can we help?')],
          buttons: [{ id: 'billing2', label: 'Money matters', next: 'billing' }],
        },
      ],
    });
    expect(same.openings[0]).toMatchObject({ name: 'Renamed', version: opening.version + 1 });

    const c = await startedFrom(person(), opening, 'billing');
    expect(c.parts[0].blocks).toEqual([para('Billing')]);
    expect(c.parts[1].kind).toBe('bot');
  });

  it("answers the bot's words with the formatting staff gave them, as the document says a part's spans may be (the spec's Span)", async () => {
    const graph = billingBot(await bot.team(unique('Billing')));
    const formatted = {
      type: 'paragraph',
      spans: [
        { text: 'Is it about ' },
        { text: 'an invoice', bold: true },
        { text: ' or a ' },
        { text: 'refund', italic: true },
        { text: '?' },
      ],
    };
    const saved = await bot.saved({ ...graph, steps: graph.steps.map((s) => (s.key === 'billing' ? { ...s, blocks: [formatted] } : s)) });
    const g = person();
    const c = await startedFrom(g, saved.openings[0] as { id: string; version: number });
    expect(c.parts[1]).toMatchObject({ kind: 'bot', blocks: [formatted] });
    expect((await g.get(c.id)).json.parts[1].blocks).toEqual([formatted]);
  });
});

describe('answering the bot', () => {
  it('moves it on: a button, then a value collected, then the team', async () => {
    const { opening, team } = await savedBot();
    const g = person();
    const c = await startedFrom(g, opening);
    const tapped = await answer(g, c.id, { part_id: c.bot_part_id, button: 'invoice' });
    expect(tapped.status, tapped.text).toBe(201);
    expect(tapped.json).toMatchObject({ kind: 'message', author: { kind: 'user' }, button: 'invoice', blocks: [para('An invoice')] });

    let seen = (await g.get(c.id)).json;
    const question = seen.parts.at(-1);
    expect(question).toMatchObject({
      kind: 'bot',
      author: { name: 'Sunny' },
      blocks: [para('What email is the invoice sent to?')],
      question: { kind: 'email' },
    });
    expect(question.buttons).toBeUndefined();
    expect(seen.bot_part_id).toBe(question.id);

    const email = await answer(g, c.id, { part_id: question.id, value: '  ada@example.com ' });
    expect(email.json).toMatchObject({ kind: 'message', blocks: [para('ada@example.com')] });
    seen = (await g.get(c.id)).json;
    const order = await answer(g, c.id, { part_id: seen.bot_part_id, value: '1234' });
    expect(order.status).toBe(201);

    seen = (await g.get(c.id)).json;
    expect(seen.parts.slice(-2)).toMatchObject([
      { kind: 'bot', blocks: [para('Passing you to our billing people.')] },
      {
        kind: 'event',
        event: 'handed_over',
        author: { kind: 'bot', name: 'Sunny' },
        blocks: [para('Sunny handed the conversation to the team')],
      },
    ]);
    expect(seen.bot_part_id).toBeNull();
    const row = await t.svc.db.conversation.findUniqueOrThrow({ where: { id: c.id } });
    expect(row).toMatchObject({ teamId: team, state: 'open', botPartId: null });
    expect(row.handedOverAt).not.toBeNull();
    // The team's list has it.
    const listed = await bot.ok('query($m: ID!, $team: ID!) { conversations(appModeId: $m, teamId: $team) { edges { node { id } } } }', {
      m: app.modes.live,
      team,
    });
    expect(listed.conversations.edges).toEqual([{ node: { id: c.id } }]);
    // Handed over: the bot takes no more answers.
    const late = await answer(g, c.id, { part_id: question.id, value: 'ada@example.com' });
    expect(late.status).toBe(409);
    expect(late.json.code).toBe('bot_handed_over');
  });

  it('refuses a stale or foreign part, and a button the part did not offer, with 409', async () => {
    const { opening } = await savedBot();
    const g = person();
    const c = await startedFrom(g, opening);
    const first = c.bot_part_id;
    expect((await answer(g, c.id, { part_id: first, button: 'nope' })).json.code).toBe('bot_button_unknown');
    expect((await answer(g, c.id, { part_id: first, button: 'invoice' })).status).toBe(201);
    // Answered already.
    const stale = await answer(g, c.id, { part_id: first, button: 'refund' });
    expect(stale.status).toBe(409);
    expect(stale.json.code).toBe('bot_question_stale');
    // A part of another conversation, and a part that is not the bot's.
    const other = await startedFrom(person(), opening);
    expect((await answer(g, c.id, { part_id: other.bot_part_id, button: 'invoice' })).json.code).toBe('bot_question_stale');
    expect((await answer(g, c.id, { part_id: c.parts[0].id, button: 'invoice' })).status).toBe(409);
    // A button to a question.
    const question = (await g.get(c.id)).json.bot_part_id;
    expect((await answer(g, c.id, { part_id: question, button: 'invoice' })).json.code).toBe('bot_button_unknown');
    // Another person's conversation is not found.
    expect((await answer(person(), c.id, { part_id: question, value: 'a@b.co' })).status).toBe(404);
  });

  it('takes one of two answers sent at once', async () => {
    const { opening } = await savedBot();
    const g = person();
    const c = await startedFrom(g, opening);
    const both = await Promise.all([
      answer(g, c.id, { part_id: c.bot_part_id, button: 'invoice' }),
      answer(g, c.id, { part_id: c.bot_part_id, button: 'refund' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('refuses a value the question cannot take with 422 naming value, and the question still waits', async () => {
    const { opening } = await savedBot();
    const g = person();
    const c = await startedFrom(g, opening);
    await answer(g, c.id, { part_id: c.bot_part_id, button: 'invoice' });
    const question = (await g.get(c.id)).json.bot_part_id;
    for (const value of ['not an email', 'ada@', '']) {
      const r = await answer(g, c.id, { part_id: question, value });
      expect(r.status).toBe(422);
      expect(r.json).toMatchObject({ code: 'value_invalid', errors: [{ field: 'value' }] });
    }
    expect((await g.get(c.id)).json.bot_part_id).toBe(question);
    await answer(g, c.id, { part_id: question, value: 'ada@example.com' });
    const number = (await g.get(c.id)).json.bot_part_id;
    expect((await answer(g, c.id, { part_id: number, value: 'twelve' })).json.errors).toEqual([
      { field: 'value', message: expect.stringContaining('number') },
    ]);
    expect((await answer(g, c.id, { part_id: number, value: '12' })).status).toBe(201);
  });

  it('keeps the collected values, shown in the export', async () => {
    const { opening } = await savedBot();
    const g = person();
    const c = await startedFrom(g, opening);
    await answer(g, c.id, { part_id: c.bot_part_id, button: 'invoice' });
    await answer(g, c.id, { part_id: (await g.get(c.id)).json.bot_part_id, value: 'ada@example.com' });
    await answer(g, c.id, { part_id: (await g.get(c.id)).json.bot_part_id, value: '1234' });
    const r = await call(t.url, 'GET', `/server/v1/contacts/${g.sub}/export`, {
      headers: { Authorization: `Bearer ${app.live.server_key}` },
    });
    expect(r.status).toBe(200);
    expect(r.json.collected).toEqual([
      { conversationId: c.id, key: 'email', value: 'ada@example.com' },
      { conversationId: c.id, key: 'order', value: '1234' },
    ]);
  });

  it("ends when a teammate replies: the bot's question is then stale", async () => {
    const { opening } = await savedBot();
    const g = person();
    const c = await startedFrom(g, opening);
    await teamPart(t, c.id, 'note', 'Looking');
    expect((await g.get(c.id)).json.bot_part_id).toBe(c.bot_part_id);
    await teamPart(t, c.id, 'message', 'Hi, I can help');
    expect((await g.get(c.id)).json.bot_part_id).toBeNull();
    expect((await answer(g, c.id, { part_id: c.bot_part_id, button: 'invoice' })).json.code).toBe('bot_question_stale');
  });
});

describe('saving the graph', () => {
  const fieldsOf = (r: { errors?: { extensions: { errors?: { field: string }[] } }[] }) =>
    r.errors?.[0]?.extensions.errors?.map((e) => e.field);

  it('refuses a dangling button, a dangling step and other faults, naming each field', async () => {
    const graph = billingBot();
    const dangling = {
      ...graph,
      steps: [
        {
          ...graph.steps[0],
          buttons: [
            { id: 'invoice', label: 'An invoice', next: 'ask_email' },
            { id: 'refund', label: 'A refund', next: 'nowhere' },
          ],
        },
        ...graph.steps.slice(1),
      ],
    };
    const r = await bot.save(dangling);
    expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request' });
    expect(fieldsOf(r)).toEqual(['steps.0.buttons.1.next']);

    const unreached = { ...graph, steps: [...graph.steps, { key: 'lonely', blocks: [para('Nobody comes here')], handover: {} }] };
    expect(fieldsOf(await bot.save(unreached))).toEqual(['steps.4.key']);

    const faults = {
      name: ' ',
      steps: [
        {
          ...graph.steps[0],
          buttons: [
            { id: 'invoice', label: 'An invoice', next: 'ask_email' },
            { id: 'invoice', label: '', next: 'ask_email' },
          ],
        },
        { key: 'ask_email', blocks: [para('Email?')], question: { kind: 'email', key: 'Email!', next: 'ask_email' } },
        { key: 'both', blocks: [para('x')], question: { kind: 'text', key: 'x', next: 'handover' }, handover: {} },
      ],
      openings: [
        {
          ...graph.openings[0],
          buttons: [
            { id: 'billing', label: 'Billing', next: 'missing' },
            { id: 'both', label: 'Both', next: 'both' },
          ],
        },
        {
          name: 'Second',
          active: true,
          blocks: [{ type: 'heading', level: 1, spans: [{ text: 'Hi' }] }],
          buttons: [{ id: 'b', label: 'B', next: 'billing' }],
        },
        { name: 'German', language: 'de', active: false, blocks: [para('Hallo')], buttons: [] },
      ],
    };
    expect(fieldsOf(await bot.save(faults))).toEqual([
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
    // Nothing of a refused save is kept.
    const own = await staffApp(t, 'Refused bot app');
    expect(fieldsOf(await bot.save(dangling, own.modes.live, own.owner))).toEqual(['steps.0.buttons.1.next']);
    expect(await t.svc.db.botStep.count({ where: { appModeId: own.modes.live } })).toBe(0);
  });

  it("refuses a hand-over to another workspace's team, and is changed by owners and admins only", async () => {
    const stranger = await staffApp(t, 'Stranger bot app');
    const theirs = await botOf(
      () => t,
      () => stranger,
    ).team('Theirs');
    expect(fieldsOf(await bot.save(billingBot(theirs)))).toEqual(['steps.3.handover.teamId']);

    const agent = await memberOf(t, app.workspaceId, 'agent');
    expect((await bot.save(billingBot(), app.modes.live, agent.token)).errors?.[0]?.extensions).toMatchObject({ code: 'role_forbids' });
    const read = await bot.ok('query($m: ID!) { helpBot(appModeId: $m) { name } }', { m: app.modes.live }, agent.token);
    expect(read.helpBot).toHaveProperty('name');
    expect((await bot.save(billingBot(), app.modes.live, stranger.owner)).errors?.[0]?.extensions).toMatchObject({ code: 'not_found' });
  });

  it('keeps one graph per app-mode: the test mode has none, and an opening left out is removed but still answers its starts', async () => {
    const own = await staffApp(t, 'Modes bot app');
    const ownBot = botOf(
      () => t,
      () => own,
    );
    const saved = await ownBot.saved(billingBot());
    const empty = await ownBot.ok(
      'query($m: ID!) { helpBot(appModeId: $m) { name steps { edges { node { key } } } openings { edges { node { id } } } } }',
      { m: own.modes.test },
    );
    expect(empty.helpBot).toEqual({ name: null, steps: { edges: [] }, openings: { edges: [] } });
    const live = await ownBot.ok(
      'query($m: ID!) { helpBot(appModeId: $m) { steps(first: 2) { edges { node { key } } pageInfo { hasNextPage } } } }',
      { m: own.modes.live },
    );
    expect(live.helpBot.steps).toEqual({
      edges: [{ node: { key: 'billing' } }, { node: { key: 'ask_email' } }],
      pageInfo: { hasNextPage: true },
    });

    const graph = billingBot();
    const replaced = await ownBot.saved({ ...graph, openings: [{ ...graph.openings[0], name: 'New one' }] });
    expect(replaced.openings.map((o: any) => o.id)).not.toContain(saved.openings[0].id);
    const g = guestOf(t, own.live, unique('user'));
    const c = await startedFrom(g, saved.openings[0]);
    expect(c.parts[1]).toMatchObject({ kind: 'bot', author: { name: 'Sunny' } });
  });
});
