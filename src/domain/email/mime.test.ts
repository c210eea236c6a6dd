import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { headerText, quotedPrintable } from '../../lib/mime/encode.js';
import { mailbox, mimeTemplate, personalMime } from './mime.js';
import { personalise } from './render.js';

// The MIME a sending hands over as it is, read back by a mail client's parser (mailparser): the
// same text, HTML and headers that personalise() and compose.ts describe, every line within its limit.

const version = {
  subject: 'Spring news — naïve café, and a subject long enough to need more than one encoded word to say it all 🌷',
  html:
    '<html><body><p>Tulips = joy. Привет, мир! </p>\n.starts with a dot\n<a href="&crm-link-0;">see them</a> ' +
    `<a href="&crm-link-1;">and more</a><img src="&crm-open;" alt="">${'x'.repeat(300)}\n` +
    '<p>Tom &amp; Jerry &crm-amp;co <a href="&crm-unsubscribe;">leave</a> <a href="&crm-preferences;">choose</a></p></body></html>',
  text: 'Tulips are in — see them (&crm-link-0;)\nTrailing space \nUnsubscribe: &crm-unsubscribe;\n',
  replyTo: 'help@shop.example.com',
};
const addresses = {
  links: [`https://crm.example.com/public/v1/email/c/${'a'.repeat(120)}?x=1&y=2`, 'https://crm.example.com/c/b'],
  open: 'https://crm.example.com/public/v1/email/o/bbb',
  unsubscribe: 'https://crm.example.com/unsubscribe/ccc',
  preferences: 'https://crm.example.com/preferences/ddd',
};

describe('a sending’s email as MIME, made from pieces encoded once', () => {
  it('reads back as the same email: text, HTML, subject, From, Reply-To, To and the one-click unsubscribe', async () => {
    const t = mimeTemplate(version, '"Garden Shop — Ünter" <news@shop.example.com>')!;
    const raw = personalMime(t, {
      to: 'reader@example.org',
      messageId: '<send-1@shop.example.com>',
      date: new Date('2026-11-29T10:00:00Z'),
      addresses,
      listUnsubscribe: addresses.unsubscribe,
    });
    const mail = await simpleParser(raw);
    const expected = personalise(version, addresses);
    expect(mail.html).toBe(expected.html);
    expect(mail.text).toBe(expected.text);
    expect(mail.subject).toBe(version.subject);
    expect(mail.from!.value).toEqual([{ name: 'Garden Shop — Ünter', address: 'news@shop.example.com' }]);
    expect(mail.replyTo!.value[0]!.address).toBe('help@shop.example.com');
    expect(mail.messageId).toBe('<send-1@shop.example.com>');
    expect(mail.date!.toISOString()).toBe('2026-11-29T10:00:00.000Z');
    expect(mail.headerLines.find((h) => h.key === 'list-unsubscribe-post')!.line).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(raw).toContain(`List-Unsubscribe: <${addresses.unsubscribe}>\r\n`);
    // Every line within 76 characters (998 for a header), every line ending CRLF, nothing but ASCII.
    const lines = raw.split('\r\n');
    expect(lines.filter((l) => l.length > 998)).toEqual([]);
    const body = raw.slice(raw.indexOf('\r\n\r\n'));
    expect(body.split('\r\n').filter((l) => l.length > 76)).toEqual([]);
    expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(raw).toMatch(/^[\x00-\x7f]*$/);
  });

  it('leaves to the mail library an email from, or replying to, an address that is not plain ASCII', () => {
    expect(mimeTemplate(version, 'news@bücher.example')).toBeNull();
    expect(mimeTemplate({ ...version, replyTo: 'Help <hilfe@bücher.example>' }, 'news@shop.example.com')).toBeNull();
    expect(mimeTemplate(version, 'Shop <news@shop.example.com>')!.head).toMatch(/^From: Shop <news@shop\.example\.com>\r\n/);
  });

  it('reads a From as written in its parts', () => {
    expect(mailbox('"A \\"B\\"" <a@b.c>')).toEqual({ name: 'A "B"', address: 'a@b.c' });
    expect(mailbox('Shop <a@b.c>')).toEqual({ name: 'Shop', address: 'a@b.c' });
    expect(mailbox('a@b.c')).toEqual({ name: '', address: 'a@b.c' });
  });
});

describe('quoted-printable and encoded words', () => {
  it('keeps plain lines, encodes =, trailing spaces and other bytes, and breaks long lines softly', () => {
    expect(quotedPrintable('plain line\nsecond')).toBe('plain line\r\nsecond');
    expect(quotedPrintable('a = b \t\nc ')).toBe('a =3D b =09\r\nc=20');
    expect(quotedPrintable('é')).toBe('=C3=A9');
    const long = quotedPrintable('y'.repeat(200));
    expect(long.split('\r\n').map((l) => l.length)).toEqual([76, 76, 50]);
    expect(long.replace(/=\r\n/g, '')).toBe('y'.repeat(200));
  });

  it('writes header text as itself when ASCII, else as encoded words of whole characters', () => {
    expect(headerText('Hello')).toBe('Hello');
    const words = headerText('é'.repeat(40)).split('\r\n ');
    expect(words.length).toBe(2);
    expect(words.every((w) => /^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/.test(w) && w.length <= 75)).toBe(true);
  });
});
