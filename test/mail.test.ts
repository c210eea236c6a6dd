import type { AddressObject } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.js';
import type { DomainError } from '../src/domain/errors.js';
import { sendMail } from '../src/domain/mail/send.js';
import { openMailTransport } from '../src/domain/mail/open.js';
import { smtpOptions } from '../src/domain/mail/smtp.js';
import { MailNotSent } from '../src/domain/mail/transport.js';
import { call } from './support/http.js';
import { memberOf, serverApi, staffApp, unique } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';
import { smtpServer } from './support/smtp.js';

// The mail transport: a real SMTP conversation with a server the test runs (smtp-server), the
// message read back with mailparser; refusals of a message that would carry a header of the
// caller's choosing; a server that refuses or cannot be reached; and, without SMTP_URL, mail kept in
// the database and read by the workspace's owners only.

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value.map((v) => v.address));
const refusal = (err: unknown) => {
  const e = err as DomainError;
  return { code: e.code, fields: e.errors.map((f) => f.field) };
};

describe('over SMTP', () => {
  let t: TestServer;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  beforeAll(async () => {
    smtp = await smtpServer();
    t = await startTestServer({ config: testConfig({ smtpUrl: smtp.url, mailFrom: 'Example Support <support@example.com>' }) });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("sends the message through a real SMTP conversation, signed in with the address's user and password", async () => {
    const { workspaceId } = await staffApp(t);
    const { id } = await sendMail(t.ctx, {
      to: ['owner-one@example.com', 'Owner.Two@example.org'],
      subject: 'Your webhook endpoint was switched off — naïve café',
      text: 'Posts to https://hooks.example.com failed for 24 hours.\nSwitch it on again in the console.',
      html: '<p>Posts failed for 24 hours.</p>',
      headers: { 'List-Unsubscribe': '<https://crm.example.com/u/abc>', 'X-CRM-Kind': 'webhook.switched_off' },
      workspaceId,
      kind: 'webhook.switched_off',
    });
    expect(smtp.received).toHaveLength(1);
    const { envelope, user, mail, raw } = smtp.received.splice(0)[0]!;
    expect(user).toBe('mailer');
    expect(envelope).toEqual({ from: 'support@example.com', to: ['owner-one@example.com', 'Owner.Two@example.org'] });
    expect(mail.from?.value).toEqual([{ name: 'Example Support', address: 'support@example.com' }]);
    expect(addresses(mail.to)).toEqual(['owner-one@example.com', 'Owner.Two@example.org']);
    expect(mail.subject).toBe('Your webhook endpoint was switched off — naïve café');
    expect(mail.text?.trimEnd()).toBe('Posts to https://hooks.example.com failed for 24 hours.\nSwitch it on again in the console.');
    expect(mail.html).toContain('<p>Posts failed for 24 hours.</p>');
    expect(mail.headers.get('list')).toMatchObject({ unsubscribe: { url: 'https://crm.example.com/u/abc' } });
    expect(mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line).toBe('List-Unsubscribe: <https://crm.example.com/u/abc>');
    expect(mail.headers.get('x-crm-kind')).toBe('webhook.switched_off');
    // No recipient beyond those asked for.
    expect(raw.toString('latin1')).not.toMatch(/^(bcc|cc):/im);
    expect(mail.date?.toISOString()).toBe(new Date(Math.floor(t.clock.now().getTime() / 1000) * 1000).toISOString());

    // The record: that it went, to whom and under which Message-ID, not what it said.
    const record = await t.svc.db.outgoingMail.findUniqueOrThrow({
      where: { id },
      include: { recipients: { orderBy: { position: 'asc' } } },
    });
    expect(mail.messageId).toBe(record.messageId);
    expect(record).toMatchObject({
      via: 'smtp',
      workspaceId,
      kind: 'webhook.switched_off',
      fromAddress: 'Example Support <support@example.com>',
      text: null,
      html: null,
      headers: null,
    });
    expect(record.recipients.map((r) => r.email)).toEqual(['owner-one@example.com', 'Owner.Two@example.org']);
  });

  it('sends once for one idempotency key, answering the first id again', async () => {
    const message = { to: 'once@example.com', subject: 'Once', text: 'Once.', kind: 'test.once', idempotencyKey: unique('once') };
    const first = await sendMail(t.ctx, message);
    const second = await sendMail(t.ctx, message);
    expect(second.id).toBe(first.id);
    expect(smtp.received.splice(0).map((r) => r.envelope.to)).toEqual([['once@example.com']]);
  });

  it('rejects with MailNotSent, permanent, when the server refuses the message (550), and keeps no record', async () => {
    smtp.refuse.set('nobody@example.com', [550, 'No such user here']);
    const kind = `test.${unique('refused').toLowerCase()}`;
    const err = await sendMail(t.ctx, { to: 'nobody@example.com', subject: 'Hello', text: 'Hello.', kind }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailNotSent);
    expect(err).toMatchObject({ permanent: true, responseCode: 550 });
    expect((err as Error).message).toMatch(/^The mail server refused the message \(for good\): 550 .*No such user here/);
    expect(smtp.received).toHaveLength(0);
    expect(await t.svc.db.outgoingMail.count({ where: { kind } })).toBe(0);
  });

  it('rejects as worth trying again when the server refuses for now (451)', async () => {
    smtp.refuse.set('busy@example.com', [451, 'Try again later']);
    const err = await sendMail(t.ctx, { to: 'busy@example.com', subject: 'Hello', text: 'Hello.', kind: 'test.busy' }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'MailNotSent', permanent: false, responseCode: 451 });
    expect((err as Error).message).toMatch(/\(for now\): 451 .*Try again later/);
  });

  it('refuses a line break in an address, the subject or a header, naming the field, and sends nothing', async () => {
    const base = { to: 'fine@example.com', subject: 'Fine', text: 'Fine.', kind: 'test.injection' };
    const tries: [Parameters<typeof sendMail>[1], string[]][] = [
      [{ ...base, to: ['fine@example.com', 'victim@example.com\r\nBcc: everyone@example.com'] }, ['to.1']],
      [{ ...base, to: 'victim@example.com\nBcc: everyone@example.com' }, ['to']],
      [{ ...base, subject: 'Hello\r\nBcc: everyone@example.com' }, ['subject']],
      [{ ...base, subject: 'Hello\rX-Evil: 1' }, ['subject']],
      [{ ...base, headers: { 'List-Unsubscribe': '<https://x.example>\r\nBcc: everyone@example.com' } }, ['headers.List-Unsubscribe']],
      [{ ...base, headers: { 'X-Evil\r\nBcc': 'everyone@example.com' } }, ['headers.X-Evil\r\nBcc']],
      [{ ...base, headers: { Bcc: 'everyone@example.com' } }, ['headers.Bcc']],
      [
        { ...base, to: ['Someone <someone@example.com>', 'a@b@example.com', 'two@example.com, three@example.com'] },
        ['to.0', 'to.1', 'to.2'],
      ],
      [{ ...base, to: [] }, ['to']],
      [{ ...base, kind: 'Not a kind' }, ['kind']],
    ];
    for (const [message, fields] of tries) {
      const err = await sendMail(t.ctx, message).catch((e: unknown) => e);
      expect(refusal(err), JSON.stringify(message)).toEqual({ code: 'invalid_request', fields });
    }
    const lineBreak = await sendMail(t.ctx, { ...base, subject: 'a\nb' }).catch((e: DomainError) => e);
    expect(lineBreak).toMatchObject({ status: 400, errors: [{ field: 'subject', message: 'must not contain a line break (CR or LF)' }] });
    expect(smtp.received).toHaveLength(0);
    expect(await t.svc.db.outgoingMail.count({ where: { kind: 'test.injection' } })).toBe(0);
  });

  it('rejects as worth trying again when the server cannot be reached', async () => {
    const closed = await smtpServer();
    await closed.close();
    const transport = openMailTransport({ smtpUrl: closed.url, mailFrom: 'CRM <no-reply@example.com>' });
    const svc = { ...t.svc, mail: transport };
    const err = await sendMail(
      { ...t.ctx, svc },
      { to: 'someone@example.com', subject: 'Hello', text: 'Hello.', kind: 'test.unreachable' },
    ).catch((e: unknown) => e);
    await transport.close();
    expect(err).toBeInstanceOf(MailNotSent);
    expect(err).toMatchObject({ permanent: false, responseCode: undefined });
    expect((err as Error).message).toMatch(/^The mail server could not be reached/);
    expect((err as Error).message).not.toContain('p@ss');
  });

  it('rejects for good when the server refuses the sign-in (535), without showing the password', async () => {
    const transport = openMailTransport({
      smtpUrl: `smtp://mailer:wrong-secret@127.0.0.1:${smtp.port}`,
      mailFrom: 'CRM <no-reply@example.com>',
    });
    const err = await sendMail(
      { ...t.ctx, svc: { ...t.svc, mail: transport } },
      { to: 'someone@example.com', subject: 'Hello', text: 'Hello.', kind: 'test.auth' },
    ).catch((e: unknown) => e);
    await transport.close();
    expect(err).toMatchObject({ name: 'MailNotSent', permanent: true, responseCode: 535 });
    expect((err as Error).message).not.toContain('wrong-secret');
    expect(smtp.received).toHaveLength(0);
  });
});

describe('without SMTP_URL', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());
  const { ok, refused } = staffApi(
    () => t.url,
    () => '',
  );

  const MAIL = `query($w: ID!, $first: Int, $after: String) { outgoingMail(workspaceId: $w, first: $first, after: $after) {
    edges { node { id kind via from to subject text html headers { name value } messageId createdAt } }
    pageInfo { hasNextPage endCursor } } }`;

  it("keeps the whole message, which the workspace's owners read newest first, page by page", async () => {
    expect(t.svc.mail.via).toBe('kept');
    const app = await staffApp(t);
    const other = await staffApp(t, 'Other');
    const sent = [];
    for (const n of [1, 2, 3]) {
      sent.push(
        await sendMail(t.ctx, {
          to: [`owner${n}@example.com`],
          subject: `Notice ${n}`,
          text: `Text ${n}`,
          html: n === 3 ? '<p>Three</p>' : undefined,
          headers: n === 3 ? { 'List-Unsubscribe': '<https://crm.example.com/u/3>' } : undefined,
          workspaceId: app.workspaceId,
          kind: 'webhook.switched_off',
        }),
      );
      t.clock.advance(1_000);
    }
    await sendMail(t.ctx, {
      to: 'elsewhere@example.com',
      subject: 'Not yours',
      text: '…',
      workspaceId: other.workspaceId,
      kind: 'webhook.switched_off',
    });

    const first = (await ok(MAIL, { w: app.workspaceId, first: 2 }, app.owner)).outgoingMail;
    expect(first.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([sent[2]!.id, sent[1]!.id]);
    const newest = first.edges[0].node;
    const record = await t.svc.db.outgoingMail.findUniqueOrThrow({ where: { id: sent[2]!.id } });
    expect(newest).toEqual({
      id: sent[2]!.id,
      kind: 'webhook.switched_off',
      via: 'kept',
      from: 'CRM <no-reply@localhost>',
      to: ['owner3@example.com'],
      subject: 'Notice 3',
      text: 'Text 3',
      html: '<p>Three</p>',
      headers: [{ name: 'List-Unsubscribe', value: '<https://crm.example.com/u/3>' }],
      messageId: record.messageId,
      createdAt: record.createdAt.toISOString(),
    });
    expect(record.messageId).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await ok(MAIL, { w: app.workspaceId, first: 2, after: first.pageInfo.endCursor }, app.owner)).outgoingMail;
    expect(
      second.edges.map((e: { node: { id: string; html: string | null; headers: unknown[] } }) => [e.node.id, e.node.html, e.node.headers]),
    ).toEqual([[sent[0]!.id, null, []]]);
    expect(second.pageInfo.hasNextPage).toBe(false);
  });

  it("lets only owners read it: an admin and an agent are refused, another workspace's owner finds nothing", async () => {
    const app = await staffApp(t);
    const other = await staffApp(t, 'Other');
    const { token: agent } = await memberOf(t, app.workspaceId, 'agent');
    const { token: admin } = await memberOf(t, app.workspaceId, 'admin');
    await sendMail(t.ctx, {
      to: 'owner@example.com',
      subject: 'Private',
      text: 'Private.',
      workspaceId: app.workspaceId,
      kind: 'webhook.switched_off',
    });
    expect(await refused(MAIL, { w: app.workspaceId }, agent)).toMatchObject({ code: 'role_forbids', status: 403 });
    expect(await refused(MAIL, { w: app.workspaceId }, admin)).toMatchObject({ code: 'role_forbids', status: 403 });
    expect(await refused(MAIL, { w: app.workspaceId }, other.owner)).toMatchObject({ code: 'not_found', status: 404 });
    expect(await refused(MAIL, { w: app.workspaceId }, '')).toMatchObject({ code: 'unauthenticated' });
    expect((await ok(MAIL, { w: app.workspaceId }, app.owner)).outgoingMail.edges).toHaveLength(1);
  });

  it('removes the mail a workspace sent to a contact when the contact is erased, and no other', async () => {
    const app = await staffApp(t);
    const other = await staffApp(t, 'Other');
    const externalId = unique('mailed');
    const email = `${externalId}@example.com`;
    await serverApi(t, app.test.server_key).identify(externalId, { email });
    const toContact = await sendMail(t.ctx, {
      to: ['staff@example.com', email.toUpperCase()],
      subject: 'Hi',
      text: 'Hi.',
      workspaceId: app.workspaceId,
      kind: 'email.message',
    });
    const toStaff = await sendMail(t.ctx, {
      to: 'staff@example.com',
      subject: 'Hi',
      text: 'Hi.',
      workspaceId: app.workspaceId,
      kind: 'webhook.switched_off',
    });
    const otherWorkspace = await sendMail(t.ctx, {
      to: email,
      subject: 'Hi',
      text: 'Hi.',
      workspaceId: other.workspaceId,
      kind: 'email.message',
    });

    expect(
      (await call(t.url, 'DELETE', `/server/v1/contacts/${externalId}`, { headers: { Authorization: `Bearer ${app.live.server_key}` } }))
        .status,
    ).toBe(202);
    await t.engine.runDue();
    const left = (await t.svc.db.outgoingMail.findMany({ where: { id: { in: [toContact.id, toStaff.id, otherWorkspace.id] } } })).map(
      (m) => m.id,
    );
    expect(left.sort()).toEqual([toStaff.id, otherWorkspace.id].sort());
    expect(await t.svc.db.outgoingMailRecipient.count({ where: { mailId: toContact.id } })).toBe(0);
  });
});

describe('settings', () => {
  it('reads SMTP_URL and MAIL_FROM, deriving the From from BASE_URL, and never shows the password', () => {
    expect(readConfig({ BASE_URL: 'https://crm.example.com' } as NodeJS.ProcessEnv)).toMatchObject({
      smtpUrl: undefined,
      mailFrom: 'CRM <no-reply@crm.example.com>',
    });
    expect(readConfig({ BASE_URL: 'http://127.0.0.1:8080' } as NodeJS.ProcessEnv).mailFrom).toBe('CRM <no-reply@localhost>');
    expect(readConfig({ SMTP_URL: 'smtp://u:secret@mail.example.com', MAIL_FROM: 'a@example.com' } as NodeJS.ProcessEnv)).toMatchObject({
      smtpUrl: 'smtp://u:secret@mail.example.com',
      mailFrom: 'a@example.com',
    });

    expect(smtpOptions('smtp://u%40x:s%3Acret@mail.example.com')).toEqual({
      host: 'mail.example.com',
      port: 587,
      secure: false,
      auth: { user: 'u@x', pass: 's:cret' },
      requireTLS: false,
      describe: 'smtp://mail.example.com',
    });
    expect(smtpOptions('smtps://u:secret@mail.example.com')).toMatchObject({
      port: 465,
      secure: true,
      describe: 'smtps://mail.example.com',
    });
    expect(smtpOptions('smtp://mail.example.com:2525?require_tls=true')).toMatchObject({
      port: 2525,
      auth: undefined,
      requireTLS: true,
      describe: 'smtp://mail.example.com:2525 (TLS required)',
    });
    const transport = openMailTransport({ smtpUrl: 'smtp://u:secret@mail.example.com', mailFrom: 'CRM <no-reply@example.com>' });
    expect(JSON.stringify({ ...transport })).not.toContain('secret');
    void transport.close();

    expect(() => openMailTransport({ smtpUrl: 'http://mail.example.com', mailFrom: 'a@example.com' })).toThrow(
      'SMTP_URL must start with smtp:// or smtps://',
    );
    expect(() => openMailTransport({ smtpUrl: undefined, mailFrom: 'CRM <not an address>' })).toThrow('MAIL_FROM must be an email address');
    expect(() => openMailTransport({ smtpUrl: undefined, mailFrom: 'CRM <a@example.com>\r\nBcc: b@example.com' })).toThrow(
      'MAIL_FROM must not contain a line break',
    );
  });
});
