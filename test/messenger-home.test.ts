import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingBot, botOf, para } from './support/bot.js';
import { memberOf, staffApp, unique, type StaffApp } from './support/factories.js';
import { helpAuthor } from './support/help.js';
import { guestOf, teamCloses, teamPart } from './support/messenger.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startedBy, ticketsOf } from './support/tickets.js';

// The messenger home (GET /guest/v1/messenger), black-box: what staff set on the staff API
// (greeting, faces, reply time, cards, the start rule, the bot's openings) and what the person has
// (unread parts, open conversations, tickets), in one answer; the help center's most read
// articles in the person's language; 404 while the messenger is off.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const SETTINGS =
  'startRule greeting faces { staffUserId staffUser { name } avatarUrl } replyTime replyTimeText cards { id kind title text link articleSlug published }';

/** An app of its own (the home reads everything of its app-mode), with its owner's staff user id. */
async function homeApp(): Promise<{ app: StaffApp; api: ReturnType<typeof botOf>; ownerId: string }> {
  const app = await staffApp(t, 'Home app');
  const api = botOf(
    () => t,
    () => app,
  );
  const ownerId = (await api.ok('{ viewer { id } }')).viewer.id;
  return { app, api, ownerId };
}

const change = (api: ReturnType<typeof botOf>, appModeId: string, input: Record<string, unknown>, token: string) =>
  api.gql(
    `mutation($m: ID!, $i: MessengerSettingsInput!) { changeMessengerSettings(appModeId: $m, input: $i) { ${SETTINGS} } }`,
    { m: appModeId, i: input },
    token,
  );

const home = (app: StaffApp, sub: string, headers: Record<string, string> = {}) =>
  guestOf(t, app.live, sub).send('GET', '/guest/v1/messenger', undefined, headers);

describe('the messenger home', () => {
  it('shows the greeting and brand, faces, reply time, published cards, open conversations, unread parts, tickets and the opening', async () => {
    const { app, api, ownerId } = await homeApp();
    const set = await change(
      api,
      app.modes.live,
      {
        greeting: ' Hi there 👋 ',
        faces: [{ staffUserId: ownerId, avatarUrl: 'https://example.com/anna.png' }],
        replyTime: 'minutes',
        cards: [
          { kind: 'message', title: 'Send us a message', text: 'We reply fast', published: true },
          { id: 'draft', kind: 'link', title: 'Not yet', link: 'https://example.com/soon', published: false },
          { id: 'status', kind: 'link', title: 'Service status', link: 'https://status.example.com', published: true },
        ],
      },
      app.owner,
    );
    expect(set.errors).toBeUndefined();
    expect(set.data.changeMessengerSettings).toMatchObject({
      greeting: 'Hi there 👋',
      faces: [{ staffUserId: ownerId, avatarUrl: 'https://example.com/anna.png' }],
      replyTime: 'minutes',
    });
    const saved = await api.saved(billingBot());

    const g = guestOf(t, app.live, unique('user'));
    const closed = await startedBy(g, 'An old question');
    await teamCloses(t, closed, false);
    const open = await startedBy(g, 'A new question');
    await teamPart(t, open, 'message', 'Hello from the team');
    const type = await ticketsOf(
      () => t,
      () => app,
    ).addType();
    const ticket = await ticketsOf(
      () => t,
      () => app,
    ).fromConversation(open, type);

    const r = await home(app, g.sub);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      unread: 3,
      language: 'en',
      layout: { greeting: 'Hi there 👋', brand: { name: 'Home app', color: expect.stringMatching(/^#/), logo_url: null } },
      open: [{ id: open, state: 'open', unread: 2 }],
      faces: [{ name: expect.any(String), avatar_url: 'https://example.com/anna.png' }],
      reply_time: { word: 'minutes', text: 'The team usually replies in a few minutes' },
      cards: [
        { kind: 'message', title: 'Send us a message', text: 'We reply fast' },
        { id: 'status', kind: 'link', title: 'Service status', text: '', link: 'https://status.example.com' },
      ],
      featured_articles: [],
      tickets: [{ id: ticket.id, number: ticket.number, conversation_id: open }],
      opening: {
        id: saved.openings[0].id,
        version: saved.openings[0].version,
        language: null,
        blocks: [para('Hi! How can we help?')],
        buttons: [
          { id: 'billing', label: 'Billing' },
          { id: 'human', label: 'Talk to a person' },
        ],
      },
    });
    expect(r.json.cards).toHaveLength(2);
  });

  it('shows the opening only when the start rule lets the person start one, in their language', async () => {
    const { app, api } = await homeApp();
    await helpAuthor(t, app).languages(['en', 'de']);
    const graph = billingBot();
    const german = {
      name: 'Deutsch',
      language: 'de',
      active: true,
      blocks: [para('Hallo! Wie können wir helfen?')],
      buttons: [{ id: 'billing', label: 'Rechnung', next: 'billing' }],
    };
    const saved = await api.saved({ ...graph, openings: [...graph.openings, german] });
    const sub = unique('user');
    expect((await home(app, sub, { 'Accept-Language': 'de-AT, en;q=0.5' })).json).toMatchObject({
      language: 'de',
      opening: { id: saved.openings[1].id, language: 'de', buttons: [{ label: 'Rechnung' }] },
    });
    expect((await home(app, sub, { 'Accept-Language': 'fr' })).json).toMatchObject({
      language: 'en',
      opening: { id: saved.openings[0].id, language: null },
    });

    await change(api, app.modes.live, { startRule: 'never' }, app.owner);
    expect((await home(app, sub)).json.opening).toBeNull();
    await change(api, app.modes.live, { startRule: 'when_none_open' }, app.owner);
    expect((await home(app, sub)).json.opening).not.toBeNull();
    const g = guestOf(t, app.live, sub);
    await startedBy(g);
    expect((await home(app, sub)).json.opening).toBeNull();
    // No active opening: none.
    await api.saved({ ...graph, openings: [{ ...graph.openings[0], active: false }] });
    await change(api, app.modes.live, { startRule: 'always' }, app.owner);
    expect((await home(app, sub)).json.opening).toBeNull();
  });

  it("features the help center's most read articles in the person's language, and none while it is off", async () => {
    const { app } = await homeApp();
    const help = helpAuthor(t, app);
    await help.languages(['en', 'de']);
    const article = await help.article({ versions: { en: { title: 'Resetting your password' }, de: { title: 'Passwort zurücksetzen' } } });
    const sub = unique('user');
    expect((await home(app, sub, { 'Accept-Language': 'de' })).json.featured_articles).toMatchObject([
      { slug: article.slug, title: 'Passwort zurücksetzen', language: 'de' },
    ]);
    await help.api.ok('mutation($m: ID!) { updateAppSettings(appModeId: $m, input: { helpOn: false }) { helpOn } }', { m: app.modes.live });
    const off = await home(app, sub);
    expect(off.status).toBe(200);
    expect(off.json.featured_articles).toEqual([]);
  });

  it('is 404 while the messenger is switched off', async () => {
    const { app, api } = await homeApp();
    await api.ok('mutation($m: ID!) { updateAppSettings(appModeId: $m, input: { messengerOn: false }) { messengerOn } }', {
      m: app.modes.live,
    });
    const r = await home(app, unique('user'));
    expect(r.status).toBe(404);
    expect(r.json.code).toBe('not_found');
  });
});

describe('messenger settings', () => {
  it('are the defaults until changed, read by every member and changed by owners and admins', async () => {
    const { app, api } = await homeApp();
    const agent = await memberOf(t, app.workspaceId, 'agent');
    const read = await api.ok(`query($m: ID!) { messengerSettings(appModeId: $m) { ${SETTINGS} } }`, { m: app.modes.live }, agent.token);
    expect(read.messengerSettings).toEqual({ startRule: 'always', greeting: '', faces: [], replyTime: null, replyTimeText: '', cards: [] });
    expect((await change(api, app.modes.live, { greeting: 'Hi' }, agent.token)).errors?.[0]?.extensions).toMatchObject({
      code: 'role_forbids',
    });
    const admin = await memberOf(t, app.workspaceId, 'admin');
    const r = await change(api, app.modes.live, { replyTime: 'stated', replyTimeText: 'Back on Monday' }, admin.token);
    expect(r.data.changeMessengerSettings).toMatchObject({ replyTime: 'stated', replyTimeText: 'Back on Monday', greeting: '' });
    expect((await home(app, unique('user'))).json.reply_time).toEqual({ word: 'stated', text: 'Back on Monday' });
    // Null takes the reply time away; what is left out stays.
    const cleared = await change(api, app.modes.live, { replyTime: null }, app.owner);
    expect(cleared.data.changeMessengerSettings).toMatchObject({ replyTime: null, replyTimeText: 'Back on Monday' });
    // The test mode has its own.
    expect(
      (await api.ok(`query($m: ID!) { messengerSettings(appModeId: $m) { replyTimeText } }`, { m: app.modes.test })).messengerSettings
        .replyTimeText,
    ).toBe('');
  });

  it('refuses faces of people outside the workspace, too many faces and bad cards, naming each field', async () => {
    const { app, api, ownerId } = await homeApp();
    const stranger = await staffApp(t, 'Stranger home app');
    const strangerId = (
      await botOf(
        () => t,
        () => stranger,
      ).ok('{ viewer { id } }')
    ).viewer.id;
    const fields = async (input: Record<string, unknown>) =>
      (await change(api, app.modes.live, input, app.owner)).errors?.[0]?.extensions.errors?.map((e: { field: string }) => e.field);
    expect(
      await fields({
        faces: [{ staffUserId: ownerId, avatarUrl: 'http://example.com/a.png' }, { staffUserId: strangerId }, { staffUserId: ownerId }],
      }),
    ).toEqual(['faces.0.avatarUrl', 'faces.1.staffUserId', 'faces.2.staffUserId']);
    expect(await fields({ faces: Array.from({ length: 6 }, () => ({ staffUserId: ownerId })) })).toContain('faces');
    expect(await fields({ replyTime: 'stated' })).toEqual(['replyTimeText']);
    expect(await fields({ greeting: 'x'.repeat(201) })).toEqual(['greeting']);
    expect(
      await fields({
        cards: [
          { kind: 'link', title: 'No link', published: true },
          { kind: 'article', title: 'Bad slug', articleSlug: 'Not A Slug', published: true },
          { kind: 'message', title: ' ', link: 'https://example.com', published: true },
        ],
      }),
    ).toEqual(['cards.0.link', 'cards.1.articleSlug', 'cards.2.title', 'cards.2.link']);
    // Nothing of a refused change is kept.
    expect(
      (await api.ok(`query($m: ID!) { messengerSettings(appModeId: $m) { faces { staffUserId } } }`, { m: app.modes.live }))
        .messengerSettings.faces,
    ).toEqual([]);
  });
});
