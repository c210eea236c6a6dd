import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../src/domain/webhooks/signature.js';
import { sentEmail } from './support/email.js';
import { serverApi, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { call } from './support/http.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';

// Emails people write, black-box: posted to the inbound-email hooks as a mail provider's converter
// posts them (signed), threaded into the person's conversation by its reply address, by a
// Message-ID of this service's anywhere in In-Reply-To or References, or by an app's inbox; the
// quoted earlier email removed and the email kept whole for staff; the same mail threaded once;
// automatic mail and strangers' mail opening and waking nothing.

const DEPLOYMENT_SECRET = 'inbound-deployment-secret-for-tests';
let t: TestServer;
let app: StaffApp;
let other: StaffApp;
let api: ReturnType<typeof staffApi>;

beforeAll(async () => {
  t = await startTestServer({ config: testConfig({ inboundSecret: DEPLOYMENT_SECRET, inboundDomain: 'in.crm.test' }) });
  [app, other] = await Promise.all([staffApp(t, 'Garden'), staffApp(t, 'Other')]);
  api = staffApi(
    () => t.url,
    () => app.owner,
  );
});
afterAll(() => t?.close());

type Mail = { id?: string; from: string; to: string[]; text: string } & Record<string, unknown>;

/** Posts a mail to an app's hook (or the deployment's), signed as the converter signs it. */
async function mailIn(to: StaffApp | 'deployment', mail: Mail) {
  const raw = JSON.stringify({ id: unique('msg'), received_at: new Date().toISOString(), ...mail });
  const secret = to === 'deployment' ? DEPLOYMENT_SECRET : to.live.inbound_secret;
  const path = to === 'deployment' ? '/public/v1/inbound-email' : `/public/v1/apps/${to.live.app_key}/inbound-email`;
  const r = await call(t.url, 'POST', path, {
    headers: { 'Content-Type': 'application/json', 'X-CRM-Signature': signatureHeader(secret, raw, new Date()) },
    body: raw,
  });
  expect(r.status, r.text).toBe(202);
  return r.json as { outcome: string; reason?: string; conversation_id?: string; part_id?: string; repeat?: boolean };
}

/** A person of `a`'s live mode with this address, who started a conversation in the messenger; its reply address. */
async function talking(a: StaffApp, address: string) {
  const sub = unique('user');
  await serverApi(t, a.live.server_key).identify(sub, { email: address });
  const started = await guestOf(t, a.live, sub).start({ text: 'My seeds never came.' });
  expect(started.status).toBe(201);
  const staff = staffApi(
    () => t.url,
    () => a.owner,
  );
  const { conversation } = await staff.ok('query($id: ID!) { conversation(id: $id) { replyAddress } }', { id: started.json.id });
  return { sub, conversationId: started.json.id as string, replyAddress: conversation.replyAddress as string };
}

const partsOf = (conversationId: string) => t.svc.db.conversationPart.findMany({ where: { conversationId }, orderBy: { seq: 'asc' } });

const GMAIL_REPLY = [
  'They came this morning, thank you!',
  '',
  'Ada',
  '',
  'On Fri, Nov 27, 2026 at 10:02 AM Garden Support <support@garden.test> wrote:',
  '> We have sent your seeds again.',
  '>',
  '> Anna',
].join('\n');

describe('replies to a conversation’s reply address', () => {
  it('join the conversation as the person’s message, the quote removed, the email kept whole for staff', async () => {
    const address = `ada_${unique('a')}@example.com`;
    const { conversationId, replyAddress } = await talking(app, address);
    expect(replyAddress).toMatch(/^reply\+[0-9a-f]{48}@in\.crm\.test$/);
    const answer = await mailIn(app, {
      from: `Ada Lovelace <${address}>`,
      to: [replyAddress],
      subject: 'Re: your seeds',
      text: GMAIL_REPLY,
    });
    expect(answer).toMatchObject({ outcome: 'threaded', conversation_id: conversationId });

    const parts = await partsOf(conversationId);
    expect(parts).toHaveLength(2);
    expect(parts[1]).toMatchObject({ id: answer.part_id, kind: 'message', authorKind: 'contact' });
    expect(parts[1]!.text).toContain('They came this morning, thank you!');
    expect(parts[1]!.text).not.toContain('We have sent your seeds again');
    const seen = await api.ok('query($c: ID!, $p: ID!) { conversationPartEmail(conversationId: $c, partId: $p) { from subject text } }', {
      c: conversationId,
      p: answer.part_id,
    });
    expect(seen.conversationPartEmail).toEqual({ from: address, subject: 'Re: your seeds', text: GMAIL_REPLY });
    // Another app's staff read nothing of it.
    const stranger = await staffApi(
      () => t.url,
      () => other.owner,
    ).refused('query($c: ID!, $p: ID!) { conversationPartEmail(conversationId: $c, partId: $p) { text } }', {
      c: conversationId,
      p: answer.part_id,
    });
    expect(stranger.code).toBe('not_found');
    // The person sees it in the messenger as their own message.
    expect(
      await t.svc.db.outboxEvent.count({ where: { topic: 'conversation.replied', data: { path: ['part_id'], equals: answer.part_id } } }),
    ).toBe(1);
  });

  it('the same mail posted again, or 20 times at once, is threaded once and answers what it did', async () => {
    const address = `twice_${unique('a')}@example.com`;
    const { conversationId, replyAddress } = await talking(app, address);
    const mail = { id: `<${randomUUID()}@mail.example.com>`, from: address, to: [replyAddress], text: 'Still waiting.' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => mailIn(app, mail)));
    expect(await partsOf(conversationId)).toHaveLength(2);
    const partIds = new Set(answers.map((a) => a.part_id));
    expect(partIds.size).toBe(1);
    expect(answers.filter((a) => !a.repeat)).toHaveLength(1);
    expect((await mailIn(app, mail)).repeat).toBe(true);
  });

  it('a reply from another address than the person’s never joins their conversation', async () => {
    const { conversationId, replyAddress } = await talking(app, `own_${unique('a')}@example.com`);
    const answer = await mailIn(app, { from: 'someone.else@example.com', to: [replyAddress], text: 'Let me in' });
    expect(answer).toEqual({ outcome: 'dropped', reason: 'sender_mismatch' });
    expect(await partsOf(conversationId)).toHaveLength(1);
  });

  it('a forged reply address, or another app’s on this app’s route, reaches nothing; the deployment’s route reaches any app’s', async () => {
    const address = `forge_${unique('a')}@example.com`;
    const mine = await talking(app, address);
    // The mark's last digit changed (a '0' to '1', any other to '0'): the address never stays as it was.
    const forged = mine.replyAddress.replace(/([0-9a-f])@/, (_m, digit: string) => `${digit === '0' ? '1' : '0'}@`);
    expect(forged).not.toBe(mine.replyAddress);
    // Not taken for mail to the inbox either: a reply address that does not hold reaches nothing.
    expect(await mailIn(app, { from: address, to: [forged], text: 'Hello' })).toEqual({ outcome: 'dropped', reason: 'unknown_address' });
    const theirs = await talking(other, address);
    expect(await mailIn(app, { from: address, to: [theirs.replyAddress], text: 'Hello' })).toEqual({
      outcome: 'dropped',
      reason: 'unknown_address',
    });
    expect(await partsOf(mine.conversationId)).toHaveLength(1);
    expect(await partsOf(theirs.conversationId)).toHaveLength(1);
    const via = await mailIn('deployment', { from: address, to: [theirs.replyAddress], text: 'Hello via the deployment' });
    expect(via).toMatchObject({ outcome: 'threaded', conversation_id: theirs.conversationId });
  });
});

describe('mail that must open and wake nothing', () => {
  it('an out-of-office, a delivery failure and a complaint report are dropped, never added nor answered', async () => {
    const address = `away_${unique('a')}@example.com`;
    const { conversationId, replyAddress } = await talking(app, address);
    const mailBefore = await t.svc.db.outgoingMail.count();
    const auto = await mailIn(app, {
      from: address,
      to: [replyAddress],
      subject: 'Automatic reply: your seeds',
      text: 'I am away until Monday.',
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    expect(auto).toEqual({ outcome: 'dropped', reason: 'auto_reply' });
    const bounce = await mailIn(app, {
      from: 'MAILER-DAEMON@mx.example.com',
      to: [replyAddress],
      subject: 'Undelivered Mail Returned to Sender',
      text: 'This is the mail system. I am sorry to have to inform you that your message could not be delivered.',
    });
    expect(bounce).toEqual({ outcome: 'dropped', reason: 'delivery_failure' });
    const conversationsBefore = await t.svc.db.conversation.count({ where: { appModeId: app.modes.live } });
    const toInbox = await mailIn(app, {
      from: 'postmaster@example.com',
      to: ['help@garden.test'],
      subject: 'Delivery Status Notification (Failure)',
      text: 'failed',
    });
    expect(toInbox.outcome).toBe('dropped');
    expect(await partsOf(conversationId)).toHaveLength(1);
    expect(await t.svc.db.conversation.count({ where: { appModeId: app.modes.live } })).toBe(conversationsBefore);
    expect(await t.svc.db.outgoingMail.count()).toBe(mailBefore);
  });
});

describe('replies to this service’s emails', () => {
  it('are threaded by any Message-ID of this service in In-Reply-To or References, the first opening a conversation and the next joining it', async () => {
    const address = `reader_${unique('a')}@example.com`;
    const externalId = unique('reader');
    await serverApi(t, app.live.server_key).identify(externalId, { email: address });
    const contact = await t.svc.db.contact.findUniqueOrThrow({
      where: { appModeId_externalId: { appModeId: app.modes.live, externalId } },
    });
    const sent = await sentEmail(t, { appModeId: app.modes.live, contactId: contact.id, address, topicId: null, links: [] });
    const { mailMessageId } = await t.svc.db.emailSend.findUniqueOrThrow({ where: { id: sent.sendId } });

    // A mail client rewrote In-Reply-To; References still names the email, not first.
    const first = await mailIn(app, {
      from: address,
      to: ['news@garden.test'],
      text: 'Do you ship to Norway?',
      in_reply_to: '<rewritten-by-client@mail.example.com>',
      references: ['<older@mail.example.com>', `<${mailMessageId}>`],
    });
    expect(first).toMatchObject({ outcome: 'started' });
    const second = await mailIn(app, {
      from: address,
      to: ['news@garden.test'],
      text: 'And to Iceland?',
      in_reply_to: `<${mailMessageId}>`,
    });
    expect(second).toMatchObject({ outcome: 'threaded', conversation_id: first.conversation_id });
    const parts = await partsOf(first.conversation_id!);
    expect(parts.map((p) => p.text)).toEqual(['Do you ship to Norway?', 'And to Iceland?']);
    expect((await t.svc.db.conversation.findUniqueOrThrow({ where: { id: first.conversation_id! } })).contactId).toBe(contact.id);

    // Someone else replying to the person's email is not let into their conversation.
    expect(
      await mailIn(app, { from: 'eve@example.com', to: ['news@garden.test'], text: 'Me too', in_reply_to: `<${mailMessageId}>` }),
    ).toEqual({
      outcome: 'dropped',
      reason: 'sender_mismatch',
    });
  });
});

describe('mail to an app’s inbox', () => {
  it('from a known person’s address starts a conversation; from a stranger it is dropped', async () => {
    const address = `known_${unique('a')}@example.com`;
    const externalId = unique('known');
    await serverApi(t, app.live.server_key).identify(externalId, { email: address });
    const started = await mailIn(app, {
      from: address.toUpperCase(),
      to: ['help@garden.test'],
      subject: 'Hello',
      text: 'Where is my order?',
    });
    expect(started).toMatchObject({ outcome: 'started' });
    const conversation = await t.svc.db.conversation.findUniqueOrThrow({
      where: { id: started.conversation_id! },
      include: { contact: true },
    });
    expect(conversation.contact.externalId).toBe(externalId);
    expect(
      await t.svc.db.outboxEvent.count({
        where: { topic: 'conversation.started', data: { path: ['conversation_id'], equals: conversation.id } },
      }),
    ).toBe(1);

    expect(await mailIn(app, { from: 'stranger@example.com', to: ['help@garden.test'], text: 'Hi' })).toEqual({
      outcome: 'dropped',
      reason: 'unknown_sender',
    });
  });

  it('on the deployment’s route, the inbox address names the app; an address naming nothing is dropped', async () => {
    const address = `viainbox_${unique('a')}@example.com`;
    await serverApi(t, other.live.server_key).identify(unique('known'), { email: address });
    const { app: theirs } = await staffApi(
      () => t.url,
      () => other.owner,
    ).ok('query($id: ID!) { app(id: $id) { live { inboxAddress } } }', { id: other.appId });
    const appMode = theirs.live;
    expect(appMode.inboxAddress).toBe(`inbox+${other.live.app_key}@in.crm.test`);
    const started = await mailIn('deployment', { from: address, to: [appMode.inboxAddress], text: 'Hello' });
    expect(started).toMatchObject({ outcome: 'started' });
    expect((await t.svc.db.conversation.findUniqueOrThrow({ where: { id: started.conversation_id! } })).appModeId).toBe(other.modes.live);
    expect(await mailIn('deployment', { from: address, to: ['help@garden.test'], text: 'Hello' })).toEqual({
      outcome: 'dropped',
      reason: 'unknown_address',
    });
  });

  it('a mail with no words of its own is dropped, and a bad one refused naming the field', async () => {
    const address = `empty_${unique('a')}@example.com`;
    await serverApi(t, app.live.server_key).identify(unique('known'), { email: address });
    expect(await mailIn(app, { from: address, to: ['help@garden.test'], text: '  \n ' })).toEqual({
      outcome: 'dropped',
      reason: 'no_words',
    });
    const raw = JSON.stringify({
      id: 'x',
      from: 'no address here',
      to: ['help@garden.test'],
      received_at: new Date().toISOString(),
      text: 'Hi',
    });
    const r = await call(t.url, 'POST', `/public/v1/apps/${app.live.app_key}/inbound-email`, {
      headers: { 'Content-Type': 'application/json', 'X-CRM-Signature': signatureHeader(app.live.inbound_secret, raw, new Date()) },
      body: raw,
    });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field)).toEqual(['from']);
  });
});

describe('erasing the person', () => {
  it('takes the emails they wrote in, and the provider’s events about their address, with them', async () => {
    const address = `gone_${unique('a')}@example.com`;
    const { sub, replyAddress } = await talking(app, address);
    expect((await mailIn(app, { from: address, to: [replyAddress], text: 'Please forget me.' })).outcome).toBe('threaded');
    const raw = JSON.stringify({
      id: unique('evt'),
      kind: 'delivered',
      message_id: '<x@y>',
      address,
      occurred_at: new Date().toISOString(),
    });
    const posted = await call(t.url, 'POST', `/public/v1/apps/${app.live.app_key}/email-events`, {
      headers: { 'Content-Type': 'application/json', 'X-CRM-Signature': signatureHeader(app.live.inbound_secret, raw, new Date()) },
      body: raw,
    });
    expect(posted.status).toBe(202);
    expect(await t.svc.db.inboundEmail.count({ where: { fromAddress: address } })).toBe(1);
    expect(await t.svc.db.emailEvent.count({ where: { address } })).toBe(1);

    const erased = await call(t.url, 'DELETE', `/server/v1/contacts/${sub}`, {
      headers: { Authorization: `Bearer ${app.live.server_key}` },
    });
    expect(erased.status).toBe(202);
    await expect
      .poll(async () => {
        await t.engine.runDue();
        return (
          (await t.svc.db.inboundEmail.count({ where: { fromAddress: address } })) +
          (await t.svc.db.emailEvent.count({ where: { address } }))
        );
      })
      .toBe(0);
  });
});
