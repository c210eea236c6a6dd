import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberOf, serverApi, staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/server.js';

// How many people a sending of an email would begin with (emailAudienceCount): the audience's people
// with an address, as sendEmailMessage counts them (`people`), refused as it refuses the audience; any
// member of the workspace may ask, no one of another.

let t: TestServer;
let app: StaffApp;
const api = staffApi(
  () => t.url,
  () => app.owner,
);
const COUNT = 'query($m: ID!, $a: SendAudienceInput!) { emailAudienceCount(appModeId: $m, audience: $a) }';

beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t, 'Counted');
  await api.ok('mutation($m: ID!) { defineAttribute(appModeId: $m, name: "plan", type: string) { name } }', { m: app.modes.live });
  const server = serverApi(t, app.live.server_key);
  await server.identify('ann', { email: 'ann@example.com', attributes: { plan: 'pro' } });
  await server.identify('bob', { email: 'bob@example.com', attributes: { plan: 'free' } });
  await server.identify('cy', { email: 'cy@example.com', attributes: { plan: 'pro' } });
  await server.identify('dan', { attributes: { plan: 'pro' } }); // no address
});
afterAll(() => t?.close());

describe('emailAudienceCount', () => {
  it('counts the people with an address of each audience, as a sending begins with them', async () => {
    const count = async (a: unknown) => (await api.ok(COUNT, { m: app.modes.live, a })).emailAudienceCount;
    expect(await count({ everyone: true })).toBe(3);
    expect(await count({ attributes: [{ name: 'plan', value: 'pro' }] })).toBe(2);
    expect(await count({ externalId: 'ann' })).toBe(1);
    expect(await count({ externalId: 'dan' })).toBe(0);
    // The test mode has no one.
    expect((await api.ok(COUNT, { m: app.modes.test, a: { everyone: true } })).emailAudienceCount).toBe(0);

    const made = await api.ok('mutation($m: ID!, $i: EmailMessageInput!) { createEmailMessage(appModeId: $m, input: $i) { id } }', {
      m: app.modes.live,
      i: { subject: 'Hello', blocks: [{ type: 'paragraph', spans: [{ text: 'Hi.' }] }] },
    });
    const sent = await api.ok('mutation($id: ID!, $a: SendAudienceInput!) { sendEmailMessage(id: $id, audience: $a) { people } }', {
      id: made.createEmailMessage.id,
      a: { attributes: [{ name: 'plan', value: 'pro' }] },
    });
    expect(sent.sendEmailMessage.people).toBe(2);
  });

  it('refuses an audience as a sending refuses it, naming the field', async () => {
    const refusal = await api.refused(COUNT, { m: app.modes.live, a: { attributes: [{ name: 'colour', value: 'red' }] } });
    expect(refusal.errors?.map((e) => e.field)).toEqual(['audience.attributes.0.name']);
    expect((await api.refused(COUNT, { m: app.modes.live, a: { everyone: true, externalId: 'ann' } })).errors?.map((e) => e.field)).toEqual(
      ['audience'],
    );
    expect((await api.refused(COUNT, { m: app.modes.live, a: { externalId: 'nobody' } })).code).toBe('not_found');
  });

  it('answers any member of the workspace and no one of another', async () => {
    const workspaceId = (await t.svc.db.app.findUniqueOrThrow({ where: { id: app.appId } })).workspaceId;
    const agent = await memberOf(t, workspaceId, 'agent');
    expect((await api.ok(COUNT, { m: app.modes.live, a: { everyone: true } }, agent.token)).emailAudienceCount).toBe(3);
    const stranger = await staffApp(t, 'Elsewhere');
    expect((await api.refused(COUNT, { m: app.modes.live, a: { everyone: true } }, stranger.owner)).code).toMatch(/forbidden|not_found/);
  });
});
