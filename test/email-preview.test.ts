import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalise } from '../src/domain/email/render.js';
import { serverApi, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';

// An email's preview, black box over real HTTP and PostgreSQL: emailPreview answers the email as a
// sending would mail it (the very HTML and text a sending's version holds, personalised with the
// preview's stand-ins: links as written, no tracking, an inline pixel), for a sample address or a
// person of the email's app-mode (their address, and why a sending would skip them); a person of
// another app-mode, or another workspace's member, is refused as not found.

let t: TestServer;
let app: StaffApp;
let api: ReturnType<typeof staffApi>;
let topicId: string;

beforeAll(async () => {
  t = await startTestServer({ config: testConfig({ baseUrl: 'https://crm.garden.test', mailFrom: 'Garden <news@mail.garden.test>' }) });
  app = await staffApp(t, 'Garden');
  api = staffApi(
    () => t.url,
    () => app.owner,
  );
  topicId = (
    await api.ok('mutation($m: ID!) { addPreferenceTopic(appModeId: $m, key: "news", name: "Garden news", channels: [email]) { id } }', {
      m: app.modes.live,
    })
  ).addPreferenceTopic.id;
});
afterAll(() => t?.close());

const LINK = 'https://garden.test/seeds?a=1&b=2#top';
const PREVIEW = 'html text subject preheader from replyTo to skipped address { url expiresAt }';

async function email(topic: string | null) {
  const made = await api.ok('mutation($m: ID!, $i: EmailMessageInput!) { createEmailMessage(appModeId: $m, input: $i) { id } }', {
    m: app.modes.live,
    i: {
      subject: 'Spring <is> here',
      preheader: 'Seeds & bulbs',
      topic,
      fromName: 'Garden shop',
      fromAddress: 'shop@garden.test',
      blocks: [{ type: 'paragraph', spans: [{ text: 'The seeds are in: ' }, { text: 'see them', link: LINK }] }],
    },
  });
  return made.createEmailMessage.id as string;
}

const preview = (id: string, contactId?: string) =>
  api
    .ok(`query($id: ID!, $c: ID) { emailPreview(emailMessageId: $id, contactId: $c) { ${PREVIEW} } }`, { id, c: contactId ?? null })
    .then((d) => d.emailPreview);

async function person(email: string, key = app.live.server_key, appModeId = app.modes.live) {
  const externalId = unique('p');
  await serverApi(t, key).identify(externalId, { email });
  return t.svc.db.contact.findUniqueOrThrow({ where: { appModeId_externalId: { appModeId, externalId } } });
}

describe("an email's preview", () => {
  it('is the HTML and text a sending renders, with links as written and nothing tracked', async () => {
    const id = await email('news');
    const p = await preview(id);
    expect(p).toMatchObject({
      subject: 'Spring <is> here',
      preheader: 'Seeds & bulbs',
      from: '"Garden shop" <shop@garden.test>',
      replyTo: null,
      to: 'someone@example.com',
      skipped: null,
    });
    // The link as written (escaped for its attribute), no tracking address, no pixel fetched.
    expect(p.html).toContain(`href="${LINK.replace(/&/g, '&amp;')}"`);
    expect(p.html).not.toContain('/public/v1/email/');
    expect(p.html).not.toContain('&crm-');
    expect(p.html).toContain('<img src="data:image/gif;base64,');
    expect(p.html).toContain('Spring &lt;is&gt; here');
    expect(p.html).toContain('https://crm.garden.test/unsubscribe/preview');
    expect(p.text).toContain(`see them (${LINK})`);
    expect(p.text).toContain('Unsubscribe: https://crm.garden.test/unsubscribe/preview');
    expect(p.text).toContain('You get this email because you are subscribed to Garden news from Garden.');

    // The same as what a sending keeps: a test copy's version, personalised with the preview's stand-ins.
    const copy = await api.ok('mutation($id: ID!) { sendTestEmail(id: $id) { id } }', { id });
    const version = await t.svc.db.emailVersion.findUniqueOrThrow({ where: { id: copy.sendTestEmail.id } });
    const expected = personalise(version, {
      links: version.links,
      open: /<img src="(data:[^"]+)"/.exec(p.html)![1]!,
      unsubscribe: 'https://crm.garden.test/unsubscribe/preview',
      preferences: 'https://crm.garden.test/preferences/preview',
    });
    expect(p.html).toBe(expected.html);
    expect(p.text).toBe(expected.text);

    // The same HTML as a page of this service, with a policy of its own: inline styles and https pictures, no script, framed only by its own pages.
    expect(p.address.url).toMatch(/^https:\/\/crm\.garden\.test\/public\/v1\/email-previews\/[^/]+$/);
    const path = new URL(p.address.url).pathname;
    const page = await fetch(`${t.url}${path}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("style-src 'unsafe-inline'");
    expect(policy).not.toContain('script-src');
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toMatch(/sandbox allow-popups/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toBe(p.html);
    // An altered address opens nothing.
    const altered = await fetch(`${t.url}${path.slice(0, -2)}${path.endsWith('AA') ? 'BB' : 'AA'}`);
    expect(altered.status).toBe(403);
    t.clock.advance(301_000);
    expect((await fetch(`${t.url}${path}`)).status).toBe(403);

    // A change shows at once in the next preview.
    await api.ok('mutation($id: ID!, $i: EmailMessageInput!) { changeEmailMessage(id: $id, input: $i) { id } }', {
      id,
      i: { subject: 'Summer is here', topic: null },
    });
    const changed = await preview(id);
    expect(changed.subject).toBe('Summer is here');
    expect(changed.html).toContain('Summer is here');
    // Transactional mail: no unsubscribe.
    expect(changed.html).not.toContain('/unsubscribe/');
    expect(changed.text).not.toContain('Unsubscribe');
  });

  it("goes to a person of the email's app-mode, saying why a sending would skip them", async () => {
    const id = await email('news');
    const ann = await person(`ann-${unique('a')}@example.com`);
    expect(await preview(id, ann.id)).toMatchObject({ to: ann.email, skipped: null });

    const bob = await person(`bob-${unique('b')}@example.com`);
    await t.svc.db.emailSuppression.create({
      data: { appModeId: app.modes.live, address: bob.email!, reason: 'bounce', createdAt: t.clock.now() },
    });
    expect(await preview(id, bob.id)).toMatchObject({ to: bob.email, skipped: 'suppressed' });

    const cy = await person(`cy-${unique('c')}@example.com`);
    await t.svc.db.preferenceChoice.create({
      data: { contactId: cy.id, topicId, channel: 'email', appModeId: app.modes.live, subscribed: false, changedAt: t.clock.now() },
    });
    expect(await preview(id, cy.id)).toMatchObject({ to: cy.email, skipped: 'unsubscribed' });

    const externalId = unique('p');
    await serverApi(t, app.live.server_key).identify(externalId, {});
    const none = await t.svc.db.contact.findUniqueOrThrow({ where: { appModeId_externalId: { appModeId: app.modes.live, externalId } } });
    expect(await preview(id, none.id)).toMatchObject({ to: null, skipped: null });
  });

  it('refuses a person of another app-mode, an email of another workspace and an email that is none as not found', async () => {
    const id = await email(null);
    const tester = await person(`t-${unique('t')}@example.com`, app.test.server_key, app.modes.test);
    const q = `query($id: ID!, $c: ID) { emailPreview(emailMessageId: $id, contactId: $c) { html } }`;
    expect(await api.refused(q, { id, c: tester.id })).toMatchObject({ code: 'not_found', message: 'No such contact.' });
    expect(await api.refused(q, { id, c: 'nobody' })).toMatchObject({ code: 'not_found' });
    const stranger = await staffApp(t, 'Elsewhere');
    expect(await api.refused(q, { id }, stranger.owner)).toMatchObject({ code: 'not_found' });
    expect(await api.refused(q, { id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ code: 'not_found' });
  });

  it('is refused naming the topic when it no longer goes by email, as a sending is', async () => {
    const id = await email('news');
    await t.svc.db.preferenceTopic.update({ where: { id: topicId }, data: { archivedAt: t.clock.now() } });
    try {
      const refusal = await api.refused(`query($id: ID!) { emailPreview(emailMessageId: $id) { html } }`, { id });
      expect(refusal.code).toBe('invalid_request');
      expect(refusal.errors).toEqual([expect.objectContaining({ field: 'topic' })]);
    } finally {
      await t.svc.db.preferenceTopic.update({ where: { id: topicId }, data: { archivedAt: null } });
    }
  });
});
