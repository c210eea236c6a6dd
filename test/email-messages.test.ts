import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EMAIL_MESSAGES } from '../src/domain/email/messages.js';
import { MAX_TRACKED_LINKS } from '../src/domain/email/render.js';
import { memberOf, staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { sentEmail } from './support/email.js';
import { startTestServer, type TestServer } from './support/server.js';

// Composing emails on the staff API: what is checked when written (each refusal naming its field),
// what staff of the app and no one else may do, the app-mode's bound held under concurrency, and an
// email that was sent staying.

let t: TestServer;
let app: StaffApp;
const api = staffApi(
  () => t.url,
  () => app.owner,
);
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t, 'Letters');
  for (const [key, channels] of [
    ['news', ['email', 'in_app']],
    ['orders', ['push']],
  ] as const)
    await api.ok(
      'mutation($m: ID!, $k: String!, $c: [PreferenceChannel!]!) { addPreferenceTopic(appModeId: $m, key: $k, name: $k, channels: $c) { id } }',
      {
        m: app.modes.live,
        k: key,
        c: channels,
      },
    );
});
afterAll(() => t?.close());

const FIELDS = 'id name subject preheader blocks topic fromName fromAddress replyTo';
const CREATE = `mutation($m: ID!, $i: EmailMessageInput!) { createEmailMessage(appModeId: $m, input: $i) { ${FIELDS} } }`;
const CHANGE = `mutation($id: ID!, $i: EmailMessageInput!) { changeEmailMessage(id: $id, input: $i) { ${FIELDS} } }`;
const para = (text: string) => ({ type: 'paragraph', spans: [{ text, link: 'https://shop.example/spring?x=[1]' }] });

describe('composing an email', () => {
  it('keeps what staff wrote, names the subject when no name is given, and changes only what is given', async () => {
    const made = (
      await api.ok(CREATE, {
        m: app.modes.live,
        i: { subject: 'Spring is here', preheader: 'Seeds half price', blocks: [para('Plant now')], topic: 'news' },
      })
    ).createEmailMessage;
    expect(made).toMatchObject({
      name: 'Spring is here',
      subject: 'Spring is here',
      preheader: 'Seeds half price',
      topic: 'news',
      fromName: null,
    });
    expect(made.blocks).toEqual([para('Plant now')]);
    const changed = (await api.ok(CHANGE, { id: made.id, i: { fromName: 'Garden Shop', replyTo: 'help@shop.example', topic: null } }))
      .changeEmailMessage;
    expect(changed).toMatchObject({ subject: 'Spring is here', fromName: 'Garden Shop', replyTo: 'help@shop.example', topic: null });
    const listed = await api.ok('query($m: ID!) { emailMessages(appModeId: $m, first: 50) { edges { node { id topic } } } }', {
      m: app.modes.live,
    });
    expect(listed.emailMessages.edges[0].node).toEqual({ id: made.id, topic: null });
  });

  it('refuses each bad field by name', async () => {
    const refused = await api.refused(CREATE, {
      m: app.modes.live,
      i: {
        subject: 'Two\nlines',
        blocks: [
          { type: 'paragraph', spans: [{ text: 'x', link: '/settings' }] },
          { type: 'image', imageUrl: 'http://insecure.example/a.png', alt: '' },
        ],
        topic: 'orders',
        fromAddress: 'Shop <shop@example.com>',
        replyTo: 'nobody',
      },
    });
    expect(refused.code).toBe('invalid_request');
    expect((refused.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(
      ['blocks.0.spans.0.link', 'blocks.1.imageUrl', 'fromAddress', 'replyTo', 'subject', 'topic'].sort(),
    );
    expect((refused.errors as { field: string; message: string }[]).find((e) => e.field === 'blocks.1.imageUrl')!.message).toMatch(/https/);
    expect((refused.errors as { field: string; message: string }[]).find((e) => e.field === 'topic')!.message).toMatch(
      /does not go by email/,
    );
    expect((await api.refused(CREATE, { m: app.modes.live, i: { subject: 'No body' } })).errors).toEqual([
      { field: 'blocks', message: 'must be an array of content blocks' },
    ]);
    expect((await api.refused(CREATE, { m: app.modes.live, i: { subject: 'x', blocks: [], topic: 'gone' } })).errors).toEqual([
      { field: 'topic', message: 'is not a topic of this app' },
    ]);
    // Each link of an email is tracked, 500 at most (MAX_TRACKED_LINKS).
    const list = { type: 'list', items: Array.from({ length: MAX_TRACKED_LINKS }, (_, i) => ({ spans: para(`Item ${i}`).spans })) };
    expect((await api.refused(CREATE, { m: app.modes.live, i: { subject: 'Many', blocks: [list, para('One more')] } })).errors).toEqual([
      { field: 'blocks', message: `must hold at most ${MAX_TRACKED_LINKS} links (each link of an email is tracked)` },
    ]);
    await api.ok(CREATE, { m: app.modes.live, i: { subject: 'Many', blocks: [list] } });
  });

  it('lets agents read and not write, and no one of another workspace either', async () => {
    const made = (await api.ok(CREATE, { m: app.modes.live, i: { subject: 'Hello', blocks: [] } })).createEmailMessage;
    const agent = await memberOf(t, (await t.svc.db.app.findUniqueOrThrow({ where: { id: app.appId } })).workspaceId, 'agent');
    expect((await api.ok('query($id: ID!) { emailMessage(id: $id) { subject } }', { id: made.id }, agent.token)).emailMessage.subject).toBe(
      'Hello',
    );
    expect((await api.refused(CHANGE, { id: made.id, i: { subject: 'Hi' } }, agent.token)).code).toBe('role_forbids');
    const stranger = await staffApp(t, 'Elsewhere');
    expect((await api.refused('query($id: ID!) { emailMessage(id: $id) { subject } }', { id: made.id }, stranger.owner)).code).toMatch(
      /forbidden|not_found/,
    );
  });

  it('deletes an email never sent, keeps one that was, and holds the app-mode’s bound under concurrency', async () => {
    const own = await staffApp(t, 'Bounded');
    const ownApi = staffApi(
      () => t.url,
      () => own.owner,
    );
    const sent = await sentEmail(t, { appModeId: own.modes.live, contactId: null, address: 'owner@example.com', topicId: null, links: [] });
    expect((await ownApi.refused('mutation($id: ID!) { deleteEmailMessage(id: $id) }', { id: sent.messageId })).code).toBe('email_sent');
    const now = t.clock.now();
    await t.svc.db.emailMessage.createMany({
      data: Array.from({ length: MAX_EMAIL_MESSAGES - 2 }, () => ({
        id: randomUUID(),
        appModeId: own.modes.live,
        name: 'old',
        subject: 'old',
        blocks: [],
        createdAt: now,
        updatedAt: now,
      })),
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => ownApi.gql(CREATE, { m: own.modes.live, i: { subject: 'One more', blocks: [] } }, own.owner)),
    );
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    expect(results.filter((r) => r.errors?.[0]?.extensions?.code === 'email_limit')).toHaveLength(9);
    expect(await t.svc.db.emailMessage.count({ where: { appModeId: own.modes.live } })).toBe(MAX_EMAIL_MESSAGES);
    const draft = results.find((r) => !r.errors)!.data.createEmailMessage.id;
    expect((await ownApi.ok('mutation($id: ID!) { deleteEmailMessage(id: $id) }', { id: draft })).deleteEmailMessage).toBe(true);
  });
});
