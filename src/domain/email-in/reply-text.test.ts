import { describe, expect, it } from 'vitest';
import { replyOf } from './reply-text.js';

// The reply a person wrote, from the formats clients send: Gmail, Outlook, Apple Mail, with and
// without ">" quoting, answers between quoted lines, several languages; never empty when the mail
// has words of its own; linear on a megabyte. Pure: no server.

const lines = (...l: string[]) => l.join('\n');

describe('replyOf', () => {
  it('takes out Gmail’s quote header and the quoted email below the reply', () => {
    const mail = lines(
      'Thanks, that fixed it.',
      '',
      'On Tue, Mar 5, 2024 at 10:12 AM Support <support@example.com> wrote:',
      '',
      '> Could you try clearing the cache?',
      '>',
      '> Best, Ana',
    );
    expect(replyOf(mail)).toEqual({ reply: 'Thanks, that fixed it.', trimmed: true });
  });

  it('joins a Gmail quote header wrapped over two lines', () => {
    const mail = lines(
      'Yes please.',
      '',
      'On Tue, Mar 5, 2024 at 10:12 AM Support Team <',
      'support@example.com> wrote:',
      '',
      '> Shall we call you?',
    );
    expect(replyOf(mail).reply).toBe('Yes please.');
  });

  it('takes out Outlook’s header block, with and without its rule of underscores', () => {
    const block = [
      'From: Support <support@example.com>',
      'Sent: Tuesday, March 5, 2024 10:12 AM',
      'To: Jo <jo@example.org>',
      'Subject: Your order',
    ];
    const withRule = lines('It arrived today.', '', '________________________________', ...block, '', 'Your order has shipped.');
    const without = lines('It arrived today.', '', ...block, '', 'Your order has shipped.');
    expect(replyOf(withRule).reply).toBe('It arrived today.');
    expect(replyOf(without).reply).toBe('It arrived today.');
  });

  it('takes out "-----Original Message-----" and its localized forms', () => {
    for (const marker of [
      '-----Original Message-----',
      '-----Ursprüngliche Nachricht-----',
      '-----Mensaje original-----',
      "-------- Message d'origine --------",
    ]) {
      const mail = lines('Done.', '', marker, 'From: Support <support@example.com>', 'Sent: 5 March 2024 10:12', '', 'Earlier text.');
      expect(replyOf(mail).reply, marker).toBe('Done.');
    }
  });

  it('takes out Apple Mail’s header and quote, and its forwarded message', () => {
    const reply = lines('Sounds good.', '', '> On 5 Mar 2024, at 10:12, Support <support@example.com> wrote:', '>', '> See you then.');
    expect(replyOf(reply).reply).toBe('Sounds good.');
    const forward = lines(
      'See below.',
      '',
      '> Begin forwarded message:',
      '>',
      '> From: Someone <a@example.com>',
      '> Subject: Hello',
      '>',
      '> Text.',
    );
    expect(replyOf(forward).reply).toBe('See below.');
  });

  it('takes out the signature after "-- " and mobile signatures standing apart', () => {
    expect(replyOf(lines('Fine by me.', '', '-- ', 'Jo Bloggs', 'ACME Ltd')).reply).toBe('Fine by me.');
    expect(replyOf(lines('Fine by me.', '', 'Sent from my iPhone')).reply).toBe('Fine by me.');
    // Inside a paragraph it is the person's sentence.
    const own = lines('I checked the parcel.', 'Sent from my office it arrived in two days.', 'Thanks.');
    expect(replyOf(own)).toEqual({ reply: own, trimmed: false });
  });

  it('keeps answers written between quoted lines, with the lines they answer', () => {
    const mail = lines(
      'On Tue, Mar 5, 2024 at 10:12 AM Support <support@example.com> wrote:',
      '> What is your order number?',
      'It is 4411.',
      '> And the address?',
      '12 High Street.',
    );
    const { reply } = replyOf(mail);
    expect(reply).toBe(lines('> What is your order number?', 'It is 4411.', '> And the address?', '12 High Street.'));
  });

  it('keeps a reply written below the quote (bottom-posting), and text after a quote in the middle', () => {
    const below = lines(
      'On Tue, Mar 5, 2024 at 10:12 AM Support <support@example.com> wrote:',
      '> Does Friday suit you?',
      '',
      'Friday is fine.',
    );
    expect(replyOf(below).reply).toBe('Friday is fine.');
    const middle = lines(
      'Hello,',
      '',
      'On 5 Mar 2024, at 10:12, Support <support@example.com> wrote:',
      '> Does Friday suit you?',
      '',
      'Friday is fine.',
      'Jo',
    );
    const { reply } = replyOf(middle);
    for (const line of ['Hello,', 'Friday is fine.', 'Jo']) expect(reply).toContain(line);
  });

  it('reads quote headers in several languages', () => {
    const headers = [
      'Le 5 mars 2024 à 10:12, Support <support@example.com> a écrit :',
      'Am 05.03.2024 um 10:12 schrieb Support <support@example.com>:',
      'El mar, 5 mar 2024 a las 10:12, Support (<support@example.com>) escribió:',
      'Il giorno mar 5 mar 2024 alle ore 10:12 Support <support@example.com> ha scritto:',
      'Em ter., 5 de mar. de 2024 às 10:12, Support <support@example.com> escreveu:',
      'Op di 5 mrt 2024 om 10:12 schreef Support <support@example.com>:',
      'Den 5. mar. 2024 kl. 10.12 skrev Support <support@example.com>:',
      'W dniu 5.03.2024 o 10:12, Support <support@example.com> pisze:',
      'вт, 5 мар. 2024 г. в 10:12, Support <support@example.com>:',
      '在 2024年3月5日，10:12，Support <support@example.com> 写道：',
    ];
    for (const header of headers) {
      const mail = lines('Merci / Danke / Gracias.', '', header, '', '> Earlier text.');
      expect(replyOf(mail).reply, header).toBe('Merci / Danke / Gracias.');
    }
  });

  it('is never empty when the mail has words: a quote alone is kept whole, trimmed false', () => {
    const quoteOnly = lines('> Only a quote.', '> Nothing else.');
    expect(replyOf(quoteOnly)).toEqual({ reply: quoteOnly, trimmed: false });
    const headerOnly = 'On Tue, Mar 5, 2024 at 10:12 AM Support <support@example.com> wrote:';
    expect(replyOf(headerOnly)).toEqual({ reply: headerOnly, trimmed: false });
    expect(replyOf(lines('-- ', 'Jo Bloggs'))).toEqual({ reply: lines('-- ', 'Jo Bloggs'), trimmed: false });
    expect(replyOf('')).toEqual({ reply: '', trimmed: false });
    expect(replyOf(' \n\n ')).toEqual({ reply: '', trimmed: false });
  });

  it('leaves a plain reply as it is, and does not take a sentence for a quote header', () => {
    const plain = lines(
      'Hi,',
      '',
      'On 2 May I wrote: please cancel.',
      'Date: the 12th suits me.',
      'From: the shop, not the site.',
      '',
      'Jo',
    );
    expect(replyOf(plain)).toEqual({ reply: plain, trimmed: false });
  });

  it('normalizes CRLF line endings and trims blank lines at either end', () => {
    expect(replyOf('\r\n\r\nHello\r\nthere\r\n\r\n')).toEqual({ reply: 'Hello\nthere', trimmed: false });
  });

  it('keeps code between fences whatever it holds', () => {
    const mail = lines('Here is the config:', '```', '> not a quote', '-- ', '```', 'Bye.');
    expect(replyOf(mail)).toEqual({ reply: mail, trimmed: false });
  });

  it('works in linear time on a megabyte body, whatever it holds', () => {
    const MB = 1 << 20;
    const bodies: Record<string, string> = {
      'one long line': 'a'.repeat(MB),
      'spaces then a letter': ' '.repeat(MB) + 'x',
      'spaces then a letter, per line': (' '.repeat(399) + 'x\n').repeat(MB / 401),
      'header starts': 'On , On , wrote 2016 '.repeat(MB / 21),
      'header starts per line': ('On 5 Mar 2024 ' + 'x, '.repeat(120) + 'wrote:\n').repeat(MB / 380),
      'colon-ended lines': 'On 2016 a <b@c.d\n>:\n'.repeat(MB / 20),
      'short colon lines': 'a:\n'.repeat(MB / 3),
      'quoted lines': '> q\n'.repeat(MB / 4),
      'quote headers': '> On Thu, Apr 30, 2020 at 10:07 AM, "x" <x@example.com> wrote:\n>\n'.repeat(MB / 70),
      'header fields': 'From: a <b@c.d>\nSent: 1 2 3\n'.repeat(MB / 30),
      addresses: ('a@a@a@a@a@'.repeat(38) + ' wrote 2016:\n').repeat(MB / 400),
      brackets: ('2016 <' + 'a@'.repeat(190) + '>:\n').repeat(MB / 390),
      signatures: 'Sent from my phone\n\n'.repeat(MB / 20),
      fences: '```\n'.repeat(MB / 4),
      mixed: 'text\n> quote\nOn 5 Mar 2024, x <x@y.z> wrote:\nFrom: a\n-- \n\n'.repeat(MB / 60),
    };
    for (const [name, body] of Object.entries(bodies)) {
      const start = performance.now();
      const { reply } = replyOf(body);
      const ms = performance.now() - start;
      expect(reply.length, name).toBeGreaterThan(0);
      // Linear work on a megabyte is some tens of milliseconds; a quadratic pattern takes minutes.
      expect(ms, name).toBeLessThan(3000);
    }
  });
});
