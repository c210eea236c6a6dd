import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.js';
import { sendMail } from '../src/domain/mail/send.js';
import { composeEmail } from '../src/domain/email/compose.js';
import { personalise, renderEmail } from '../src/domain/email/render.js';
import { emailTokenKey } from '../src/domain/email/tokens.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';
import { smtpServer } from './support/smtp.js';

// DKIM: with DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY set, mail sent over SMTP is signed,
// and the signature covers both List-Unsubscribe headers (RFC 8058). The message is read back from
// a real SMTP server and its signature checked by mailauth against the public key, given by a
// resolver standing in for DNS. A partial set of the settings stops the start.

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const txt = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
const RECORD = 'mail2026._domainkey.example.com';
/** DNS as mailauth asks it: the one key's TXT record, nothing else. */
const resolver = async (name: string, type: string) => {
  if (type === 'TXT' && name === RECORD) return [[txt]];
  throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
};
/** The tags of a DKIM-Signature header. */
const tags = (header: string) =>
  Object.fromEntries(
    header
      .replace(/^[^:]*:/, '')
      .replace(/\s+/g, '')
      .split(';')
      .filter(Boolean)
      .map((tag) => [tag.slice(0, tag.indexOf('=')), tag.slice(tag.indexOf('=') + 1)]),
  );

describe('DKIM over SMTP', () => {
  let t: TestServer;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  beforeAll(async () => {
    smtp = await smtpServer();
    // The key as an environment holds it on one line, its line breaks written \n.
    const { dkim } = readConfig({ DKIM_DOMAIN: 'Example.com', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n') });
    expect(dkim).toMatchObject({ domainName: 'example.com', keySelector: 'mail2026', privateKey: pem });
    t = await startTestServer({ config: testConfig({ smtpUrl: smtp.url, mailFrom: 'Garden Shop <news@example.com>', dkim }) });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('signs the mail, both List-Unsubscribe headers inside the signature', async () => {
    const rendered = await renderEmail({
      subject: 'Spring news',
      preheader: 'What grows in April',
      blocks: [{ type: 'paragraph', spans: [{ text: 'Tulips are in — ' }, { text: 'see them', link: 'https://shop.example.com/tulips' }] }],
      brand: { name: 'Garden Shop', color: '#2f9e44', logoUrl: null },
      language: 'en',
      topic: { name: 'Garden news' },
    });
    const body = personalise(rendered, {
      links: ['https://crm.example.com/public/v1/email/c/aaa'],
      open: 'https://crm.example.com/public/v1/email/o/bbb',
      unsubscribe: 'https://crm.example.com/unsubscribe/ccc',
      preferences: 'https://crm.example.com/preferences/ddd',
    });
    await sendMail(t.ctx, {
      to: 'reader@example.org',
      subject: 'Spring news — naïve café',
      text: body.text,
      html: body.html,
      headers: {
        'List-Unsubscribe': '<https://crm.example.com/public/v1/email/unsubscribe/ccc>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      kind: 'test.dkim',
    });
    expect(smtp.received).toHaveLength(1);
    const { raw, mail } = smtp.received.splice(0)[0]!;
    expect(mail.text).toContain('see them (https://crm.example.com/public/v1/email/c/aaa)');

    const { results } = await dkimVerify(raw, { resolver });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      signingDomain: 'example.com',
      selector: 'mail2026',
      status: { result: 'pass', aligned: 'example.com' },
    });
    const signature = mail.headerLines.find((h) => h.key === 'dkim-signature')!.line;
    const signed = tags(signature);
    expect(signed).toMatchObject({ v: '1', a: 'rsa-sha256', c: 'relaxed/relaxed', d: 'example.com', s: 'mail2026' });
    const h = signed.h!.toLowerCase().split(':');
    expect(h).toEqual(expect.arrayContaining(['from', 'to', 'subject', 'date', 'message-id', 'list-unsubscribe', 'list-unsubscribe-post']));

    // Changing a List-Unsubscribe header on the way breaks the signature: it is inside it.
    const altered = Buffer.from(raw.toString('latin1').replace('email/unsubscribe/ccc', 'email/unsubscribe/xxx'), 'latin1');
    expect((await dkimVerify(altered, { resolver })).results[0]!.status.result).toBe('fail');
    const unposted = Buffer.from(raw.toString('latin1').replace('List-Unsubscribe=One-Click', 'List-Unsubscribe=Two-Clicks'), 'latin1');
    expect((await dkimVerify(unposted, { resolver })).results[0]!.status.result).toBe('fail');
  });

  it('signs a sending’s email, made as MIME once and handed over as it is, with both List-Unsubscribe headers inside', async () => {
    const rendered = await renderEmail({
      subject: 'Spring news',
      preheader: '',
      blocks: [{ type: 'paragraph', spans: [{ text: 'Tulips — ' }, { text: 'see them', link: 'https://shop.example.com/tulips' }] }],
      brand: { name: 'Garden Shop', color: '#2f9e44', logoUrl: null },
      language: 'en',
      topic: { name: 'Garden news' },
    });
    const version = {
      ...rendered,
      subject: 'Spring news — naïve café',
      topicId: 'topic-1',
      fromName: 'Garden Shöp',
      fromAddress: null,
      replyTo: null,
    };
    const at = { key: emailTokenKey(t.svc), baseUrl: 'https://crm.example.com', defaultFrom: 'Garden Shop <news@example.com>' };
    const message = composeEmail(version, { sendId: randomUUID(), address: 'reader@example.org' }, at, new Date());
    expect(message.mime).toBeDefined();
    await t.svc.mail.send(message);
    const { raw, mail } = smtp.received.splice(0)[0]!;
    expect(mail.subject).toBe('Spring news — naïve café');
    expect(mail.html).toBe(message.html);
    const { results } = await dkimVerify(raw, { resolver });
    expect(results[0]).toMatchObject({ signingDomain: 'example.com', status: { result: 'pass', aligned: 'example.com' } });
    const h = tags(mail.headerLines.find((l) => l.key === 'dkim-signature')!.line)
      .h!.toLowerCase()
      .split(':');
    expect(h).toEqual(expect.arrayContaining(['from', 'to', 'subject', 'date', 'message-id', 'list-unsubscribe', 'list-unsubscribe-post']));
  });
});

describe('the DKIM settings', () => {
  const all = { DKIM_DOMAIN: 'example.com', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY: pem };

  it('are all three or none: a partial set is refused naming what is missing', () => {
    expect(readConfig({}).dkim).toBeUndefined();
    expect(readConfig(all).dkim).toMatchObject({ domainName: 'example.com', keySelector: 'mail2026' });
    expect(() => readConfig({ ...all, DKIM_SELECTOR: '' })).toThrow(
      'DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY together: DKIM_SELECTOR is missing',
    );
    expect(() => readConfig({ DKIM_PRIVATE_KEY: pem })).toThrow(/: DKIM_DOMAIN and DKIM_SELECTOR are missing/);
    expect(() => readConfig({ DKIM_DOMAIN: 'example.com', DKIM_SELECTOR: 'mail2026' })).toThrow(/: DKIM_PRIVATE_KEY is missing/);
  });

  it('refuse a key that does not read, or is not RSA, without showing it', () => {
    const notAKey = 'not-a-key-secret-words';
    expect(() => readConfig({ ...all, DKIM_PRIVATE_KEY: notAKey })).toThrow(/^DKIM_PRIVATE_KEY must be a private key in PEM/);
    expect(() => readConfig({ ...all, DKIM_PRIVATE_KEY: notAKey })).not.toThrow(/secret-words/);
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => readConfig({ ...all, DKIM_PRIVATE_KEY: ed })).toThrow(
      'DKIM_PRIVATE_KEY must be an RSA key (rsa-sha256 signatures), not ed25519',
    );
    expect(() => readConfig({ ...all, DKIM_DOMAIN: 'not a domain' })).toThrow(/^DKIM_DOMAIN must be a domain name/);
    expect(() => readConfig({ ...all, DKIM_SELECTOR: 'a;b=c' })).toThrow(/^DKIM_SELECTOR must be a DNS label/);
  });
});
