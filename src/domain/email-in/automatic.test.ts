import { describe, expect, it } from 'vitest';
import { automaticKind } from './automatic.js';

// Mail no person wrote: auto-replies, delivery failures and complaint reports, read from headers
// (any case), senders and subjects in several languages; a person's mail is none of them. Pure.

const person = { from: 'Jo Bloggs <jo@example.org>', subject: 'Re: Your order', text: 'Thanks, it arrived.' };

describe('automaticKind', () => {
  it('is undefined for a person’s mail, even one that talks of delivery or vacations', () => {
    expect(automaticKind(person)).toBeUndefined();
    expect(automaticKind({ ...person, subject: 'My parcel could not be delivered' })).toBeUndefined();
    expect(automaticKind({ ...person, subject: 'Booking a flat on vacation in May' })).toBeUndefined();
    expect(automaticKind({ ...person, subject: 'Re: out of office hours support?' })).toBeUndefined();
    expect(automaticKind({ ...person, headers: { 'Auto-Submitted': 'no', Precedence: 'normal' } })).toBeUndefined();
    expect(automaticKind({ from: 'postmaster-fan@example.org', text: 'hi' })).toBeUndefined();
  });

  it('reads auto-replies from their headers, whatever the case of the names', () => {
    const cases: Record<string, string>[] = [
      { 'Auto-Submitted': 'auto-replied' },
      { 'auto-submitted': 'auto-generated' },
      { 'AUTO-SUBMITTED': 'auto-replied (vacation)' },
      { 'X-Autoreply': 'yes' },
      { 'x-autorespond': 'Out of office' },
      { Precedence: 'auto_reply' },
      { precedence: 'bulk' },
      { PRECEDENCE: 'junk' },
      { 'X-Auto-Response-Suppress': 'All' },
    ];
    for (const headers of cases) expect(automaticKind({ ...person, headers }), JSON.stringify(headers)).toBe('auto_reply');
  });

  it('reads auto-replies from their subjects in several languages', () => {
    for (const subject of [
      'Automatic reply: Your order',
      'Auto-Reply: Your order',
      'Out of Office: Your order',
      'Automatische Antwort: Ihre Bestellung',
      'Abwesenheitsnotiz: Ihre Bestellung',
      'Réponse automatique : Votre commande',
      'Respuesta automática: Su pedido',
      'Risposta automatica: Il tuo ordine',
      'Resposta automática: Seu pedido',
      'Automatisch antwoord: Uw bestelling',
      'Автоматический ответ: Ваш заказ',
      'Automatyczna odpowiedź: Twoje zamówienie',
      'Automatiskt svar: Din beställning',
      '自动回复: 您的订单',
    ])
      expect(automaticKind({ ...person, subject }), subject).toBe('auto_reply');
  });

  it('reads delivery failures from their senders, subjects and report type', () => {
    expect(automaticKind({ from: 'MAILER-DAEMON@mx.example.net', subject: 'Undelivered Mail Returned to Sender', text: '...' })).toBe(
      'delivery_failure',
    );
    expect(automaticKind({ from: 'Mail Delivery System <Mailer-Daemon@mx.example.net>', text: '...' })).toBe('delivery_failure');
    expect(automaticKind({ from: 'postmaster@example.net', text: '...' })).toBe('delivery_failure');
    expect(
      automaticKind({
        from: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
        subject: 'Delivery Status Notification (Failure)',
        text: '...',
      }),
    ).toBe('delivery_failure');
    expect(automaticKind({ from: 'system@example.net', subject: 'Delivery Status Notification (Failure)', text: '...' })).toBe(
      'delivery_failure',
    );
    expect(automaticKind({ from: 'system@example.net', subject: 'Undeliverable: Your order', text: '...' })).toBe('delivery_failure');
    expect(automaticKind({ from: 'system@example.net', subject: 'Unzustellbar: Ihre Bestellung', text: '...' })).toBe('delivery_failure');
    expect(automaticKind({ ...person, headers: { 'Content-Type': 'multipart/report; report-type=delivery-status; boundary="x"' } })).toBe(
      'delivery_failure',
    );
    expect(automaticKind({ ...person, headers: { 'x-failed-recipients': 'a@example.org' } })).toBe('delivery_failure');
  });

  it('reads complaint reports (ARF) from their report type or their body', () => {
    expect(
      automaticKind({
        from: 'fbl@isp.example',
        text: 'This is an email abuse report',
        headers: { 'content-type': 'multipart/report; report-type=feedback-report' },
      }),
    ).toBe('complaint_report');
    expect(
      automaticKind({
        from: 'fbl@isp.example',
        text: 'This is an email abuse report\n\nFeedback-Type: abuse\nUser-Agent: SomeGenerator/1.0\nVersion: 1\n',
      }),
    ).toBe('complaint_report');
    expect(automaticKind({ from: 'fbl@isp.example', text: 'Content-Type: message/feedback-report\n\nFeedback-Type: abuse' })).toBe(
      'complaint_report',
    );
  });

  it('takes a complaint report for one even from a bounce sender, and a bounce before an auto-reply', () => {
    expect(automaticKind({ from: 'postmaster@isp.example', text: 'Feedback-Type: abuse\n' })).toBe('complaint_report');
    expect(automaticKind({ from: 'MAILER-DAEMON@mx.example.net', text: '...', headers: { 'Auto-Submitted': 'auto-replied' } })).toBe(
      'delivery_failure',
    );
  });

  it('reads only the start of a huge body or subject', () => {
    const start = performance.now();
    expect(
      automaticKind({ from: 'jo@example.org', subject: 'x'.repeat(1 << 20), text: ' '.repeat(1 << 20) + 'Feedback-Type: abuse' }),
    ).toBeUndefined();
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
