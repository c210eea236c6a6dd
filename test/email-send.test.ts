import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverApi, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { ENGINES, sayIfTemporalSkipped, startTestServer, testConfig, type EngineName, type TestServer } from './support/server.js';
import { smtpServer } from './support/smtp.js';
import { call } from './support/http.js';
import { signatureHeader } from '../src/domain/webhooks/signature.js';

// Sending an email, black-box: the staff API starts a sending, its durable process hands each
// person's email to a real SMTP server, and what reached the server is read back: who got it, who
// was skipped and why, the headers (Message-ID of this service's domain, List-Unsubscribe with the
// one-click POST for topic mail, none for transactional mail), `message.sent` for each person, the
// statistics, a test copy to a team member only, a refusal for good, and a sending stopped.

let t: TestServer;
let smtp: Awaited<ReturnType<typeof smtpServer>>;
let app: StaffApp;
let api: ReturnType<typeof staffApi>;
const topics: Record<string, string> = {};

beforeAll(async () => {
  smtp = await smtpServer();
});
afterAll(() => smtp?.close());

/** A server on the engine, an app of its own, and its two topics (deals: offers). */
async function start(engine: EngineName) {
  t = await startTestServer({ config: testConfig({ smtpUrl: smtp.url, mailFrom: 'Garden <news@mail.garden.test>' }), engine });
  app = await staffApp(t, 'Garden');
  api = staffApi(
    () => t.url,
    () => app.owner,
  );
  for (const [key, offers] of [
    ['news', false],
    ['deals', true],
  ] as const) {
    const made = await api.ok(
      'mutation($m: ID!, $k: String!, $o: Boolean) { addPreferenceTopic(appModeId: $m, key: $k, name: $k, channels: [email], offers: $o) { id } }',
      { m: app.modes.live, k: key, o: offers },
    );
    topics[key] = made.addPreferenceTopic.id;
  }
}

/** A person of the live mode with an address (none when null), marked with an attribute `batch` so one test's sendings reach only its own people. */
async function person(batch: string, email: string | null) {
  const externalId = unique('p');
  await serverApi(t, app.live.server_key).identify(externalId, { ...(email ? { email } : {}), attributes: { batch } });
  return t.svc.db.contact.findUniqueOrThrow({ where: { appModeId_externalId: { appModeId: app.modes.live, externalId } } });
}

async function email(topic: string | null, subject = 'Spring is here') {
  const made = await api.ok('mutation($m: ID!, $i: EmailMessageInput!) { createEmailMessage(appModeId: $m, input: $i) { id } }', {
    m: app.modes.live,
    i: { subject, topic, blocks: [{ type: 'paragraph', spans: [{ text: 'Seeds are in.' }] }] },
  });
  return made.createEmailMessage.id as string;
}

const SENDING = 'id state people number statistics { sent failed pending skipped { reason count } }';

async function sendTo(messageId: string, batch: string) {
  return (
    await api.ok(
      `mutation($id: ID!, $b: JSON!) { sendEmailMessage(id: $id, audience: { attributes: [{ name: "batch", value: $b }] }) { ${SENDING} } }`,
      {
        id: messageId,
        b: batch,
      },
    )
  ).sendEmailMessage;
}

/** The sending once its process is over: its due steps run (the test server's clock is the test's). */
async function finished(id: string) {
  await expect
    .poll(
      async () => {
        await t.engine.runDue();
        return (await t.svc.db.emailVersion.findUniqueOrThrow({ where: { id } })).state;
      },
      { timeout: 20_000 },
    )
    .not.toBe('sending');
  const { messageId } = await t.svc.db.emailVersion.findUniqueOrThrow({ where: { id } });
  const sendings = await api.ok(`query($id: ID!) { emailSendings(messageId: $id) { edges { node { ${SENDING} } } } }`, { id: messageId });
  return sendings.emailSendings.edges.map((e: { node: { id: string } }) => e.node).find((n: { id: string }) => n.id === id);
}

const to = (address: string) => smtp.received.filter((r) => r.envelope.to.includes(address));

// The sending is a durable process: every test runs on both engines, each on a server of its own.
sayIfTemporalSkipped('test/email-send.test.ts');
describe.each(ENGINES)('on the $engine engine', ({ engine, skip }) => {
  describe.skipIf(skip)('', () => {
    beforeAll(() => start(engine));
    afterAll(() => t?.close());

    describe('a sending to an audience', () => {
      it('sends each person who hears of the topic by email once, and skips the others by reason', async () => {
        const batch = unique('b');
        const ann = await person(batch, `ann-${batch}@example.com`);
        const bob = await person(batch, `Bob-${batch}@Example.com`);
        const cy = await person(batch, `cy-${batch}@example.com`);
        const di = await person(batch, `di-${batch}@example.com`);
        await person(batch, null);
        const now = new Date();
        await t.svc.db.emailSuppression.create({
          data: { appModeId: app.modes.live, address: `bob-${batch}@example.com`, reason: 'bounce', createdAt: now },
        });
        await t.svc.db.preferenceChoice.create({
          data: { contactId: cy.id, topicId: topics.news!, channel: 'email', appModeId: app.modes.live, subscribed: false, changedAt: now },
        });
        await t.svc.db.preferenceState.create({ data: { contactId: di.id, appModeId: app.modes.live, allOff: true, changedAt: now } });

        const messageId = await email('news');
        const sending = await sendTo(messageId, batch);
        expect(sending).toMatchObject({ state: 'sending', people: 4, number: 1 });
        const done = await finished(sending.id);
        expect(done.state).toBe('done');
        expect(done.statistics).toEqual({
          sent: 1,
          failed: 0,
          pending: 0,
          skipped: [
            { reason: 'all_off', count: 1 },
            { reason: 'suppressed', count: 1 },
            { reason: 'unsubscribed', count: 1 },
          ],
        });
        const got = to(`ann-${batch}@example.com`);
        expect(got).toHaveLength(1);
        expect(smtp.received.filter((r) => r.envelope.to.some((a) => a.includes(batch)))).toHaveLength(1);

        // Its headers: the Message-ID of this service's domain (kept with the email), the one-click unsubscribe.
        const mail = got[0]!.mail;
        const row = await t.svc.db.emailSend.findFirstOrThrow({ where: { contactId: ann.id, versionId: sending.id } });
        expect(mail.messageId).toBe(`<${row.mailMessageId}>`);
        expect(row.mailMessageId).toMatch(/@mail\.garden\.test$/);
        const header = (name: string) =>
          mail.headerLines
            .find((h) => h.key === name)
            ?.line.replace(/^[^:]*:\s*/, '')
            .replace(/\r?\n\s+/g, ' ');
        const listUnsubscribe = /^<(.*)>$/.exec(header('list-unsubscribe') ?? '')?.[1] ?? '';
        expect(listUnsubscribe).toMatch(new RegExp(`^${t.svc.config.baseUrl}/public/v1/email/unsubscribe/[A-Za-z0-9_-]{43}$`));
        expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
        expect(mail.subject).toBe('Spring is here');

        // message.sent for the person reached, and nobody else.
        const told = await t.svc.db.outboxEvent.findMany({
          where: { topic: 'message.sent', externalId: { in: [ann, bob, cy, di].map((p) => p.externalId) } },
        });
        expect(told.map((e) => [e.externalId, e.data])).toEqual([
          [ann.externalId, { message_id: messageId, channel: 'email', email_id: row.id }],
        ]);

        // The one-click POST of RFC 8058 at the List-Unsubscribe address unsubscribes the person from the topic by email.
        const path = new URL(listUnsubscribe).pathname;
        const post = await fetch(`${t.url}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        });
        expect(post.status).toBe(200);
        const choice = await t.svc.db.preferenceChoice.findUnique({
          where: { contactId_topicId_channel: { contactId: ann.id, topicId: topics.news!, channel: 'email' } },
        });
        expect(choice?.subscribed).toBe(false);
      });

      it('skips people without consent to offers for an offers topic', async () => {
        const batch = unique('b');
        const yes = await person(batch, `yes-${batch}@example.com`);
        await person(batch, `no-${batch}@example.com`);
        await t.svc.db.contact.update({ where: { id: yes.id }, data: { offersByEmail: true } });
        const sending = await sendTo(await email('deals'), batch);
        const done = await finished(sending.id);
        expect(done.statistics).toMatchObject({ sent: 1, skipped: [{ reason: 'no_consent', count: 1 }] });
        expect(to(`yes-${batch}@example.com`)).toHaveLength(1);
        expect(to(`no-${batch}@example.com`)).toHaveLength(0);
      });

      it('sends transactional mail without unsubscribe headers, also to someone who turned everything off, never to a suppressed address', async () => {
        const batch = unique('b');
        const off = await person(batch, `off-${batch}@example.com`);
        await person(batch, `gone-${batch}@example.com`);
        const now = new Date();
        await t.svc.db.preferenceState.create({ data: { contactId: off.id, appModeId: app.modes.live, allOff: true, changedAt: now } });
        await t.svc.db.emailSuppression.create({
          data: { appModeId: app.modes.live, address: `gone-${batch}@example.com`, reason: 'complaint', createdAt: now },
        });
        const done = await finished((await sendTo(await email(null, 'Your receipt'), batch)).id);
        expect(done.statistics).toMatchObject({ sent: 1, skipped: [{ reason: 'suppressed', count: 1 }] });
        const [got] = to(`off-${batch}@example.com`);
        expect(got!.mail.headerLines.map((h) => h.key)).not.toContain('list-unsubscribe');
        expect(got!.mail.headerLines.map((h) => h.key)).not.toContain('list-unsubscribe-post');
      });

      it('skips in the next sending an address a hard bounce posted to the email-events hook suppressed, not one that bounced softly', async () => {
        const batch = unique('b');
        await person(batch, `hard-${batch}@example.com`);
        await person(batch, `soft-${batch}@example.com`);
        const messageId = await email(null, 'Your order');
        expect((await finished((await sendTo(messageId, batch)).id)).statistics).toMatchObject({ sent: 2 });
        // The provider tells of each email by the Message-ID it was sent with.
        for (const [kind, hard] of [
          ['hard', true],
          ['soft', false],
        ] as const) {
          const [got] = to(`${kind}-${batch}@example.com`);
          const raw = JSON.stringify({
            id: unique('evt'),
            kind: 'bounce',
            hard,
            message_id: got!.mail.messageId,
            address: `${kind}-${batch}@example.com`,
            occurred_at: new Date().toISOString(),
          });
          const posted = await call(t.url, 'POST', `/public/v1/apps/${app.live.app_key}/email-events`, {
            headers: { 'Content-Type': 'application/json', 'X-CRM-Signature': signatureHeader(app.live.inbound_secret, raw, new Date()) },
            body: raw,
          });
          expect(posted.status).toBe(202);
        }
        const again = await finished((await sendTo(messageId, batch)).id);
        expect(again.statistics).toMatchObject({ sent: 1, skipped: [{ reason: 'suppressed', count: 1 }] });
        expect(to(`hard-${batch}@example.com`)).toHaveLength(1);
        expect(to(`soft-${batch}@example.com`)).toHaveLength(2);
      });

      it('fails an email the mail server refuses for good, with its answer, and sends the others', async () => {
        const batch = unique('b');
        await person(batch, `fine-${batch}@example.com`);
        const refused = await person(batch, `nobody-${batch}@example.com`);
        smtp.refuse.set(`nobody-${batch}@example.com`, [550, 'No such mailbox']);
        const done = await finished((await sendTo(await email('news'), batch)).id);
        expect(done.statistics).toMatchObject({ sent: 1, failed: 1 });
        const row = await t.svc.db.emailSend.findFirstOrThrow({ where: { contactId: refused.id } });
        expect(row).toMatchObject({ state: 'failed' });
        expect(row.reason).toContain('No such mailbox');
      });

      it('keeps what each sending sent: an edit afterwards is the next sending’s version', async () => {
        const batch = unique('b');
        await person(batch, `ed-${batch}@example.com`);
        const messageId = await email('news', 'First words');
        const first = await finished((await sendTo(messageId, batch)).id);
        await api.ok('mutation($id: ID!) { changeEmailMessage(id: $id, input: { subject: "Second words" }) { id } }', { id: messageId });
        const second = await finished((await sendTo(messageId, batch)).id);
        expect([first.number, second.number]).toEqual([1, 2]);
        expect((await t.svc.db.emailVersion.findUniqueOrThrow({ where: { id: first.id } })).subject).toBe('First words');
        expect(to(`ed-${batch}@example.com`).map((r) => r.mail.subject)).toEqual(['First words', 'Second words']);
      });
    });

    describe('test copies', () => {
      it('sends a test copy to a team member only, counting nothing', async () => {
        const messageId = await email('news', 'A test');
        const sent = (await api.ok('mutation($id: ID!) { sendTestEmail(id: $id) { id test } }', { id: messageId })).sendTestEmail;
        expect(sent.test).toBe(true);
        await finished(sent.id);
        const got = to(app.ownerEmail);
        expect(got.map((r) => r.mail.subject)).toContain('A test');
        expect(
          (await api.ok('query($id: ID!) { emailMessage(id: $id) { statistics { sent } } }', { id: messageId })).emailMessage.statistics
            .sent,
        ).toBe(0);

        const stranger = await api.refused('mutation($id: ID!) { sendTestEmail(id: $id, to: "stranger@example.com") { id } }', {
          id: messageId,
        });
        expect(stranger).toMatchObject({ code: 'invalid_request' });
        expect(JSON.stringify(stranger)).toContain('"to"');
      });
    });

    describe('a sending stopped', () => {
      it('says whether it stopped a sending; one over already says false', async () => {
        const batch = unique('b');
        await person(batch, `st-${batch}@example.com`);
        const done = await finished((await sendTo(await email('news'), batch)).id);
        expect((await api.ok('mutation($id: ID!) { stopEmailSending(id: $id) }', { id: done.id })).stopEmailSending).toBe(false);
      });
    });

    describe('the complaint rate', () => {
      it('is the share of the last 30 days’ emails marked as spam, with its level', async () => {
        const rate = (
          await api.ok('query($m: ID!) { emailComplaintRate(appModeId: $m) { sent complained rate level } }', { m: app.modes.live })
        ).emailComplaintRate;
        expect(rate.complained).toBe(0);
        expect(rate.level).toBe('ok');
        expect(rate.sent).toBeGreaterThan(0);
      });
    });
  });
});
