import { describe, expect, it } from 'vitest';
import { byMachine } from './machines.js';

const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const sentAt = new Date('2026-11-28T10:00:00Z');
const later = (seconds: number) => new Date(sentAt.getTime() + seconds * 1000);

describe('machine opens and clicks', () => {
  it('takes a browser a minute after sending for a person', () => {
    expect(byMachine({ method: 'GET', userAgent: CHROME, sentAt, now: later(60) })).toBe(false);
    // Gmail's image proxy fetches when the person opens the email.
    expect(
      byMachine({
        method: 'GET',
        userAgent: 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
        sentAt,
        now: later(600),
      }),
    ).toBe(false);
  });

  it('takes scanners, previewers, libraries and no agent for machines', () => {
    for (const agent of [
      'Mozilla/5.0 (compatible; Googlebot/2.1)',
      'Proofpoint URL Defense',
      'Mimecast-Scanner/1.0',
      'Microsoft Office Existence Discovery',
      'python-requests/2.32',
      'curl/8.5.0',
      'Slackbot-LinkExpanding 1.0',
      'Mozilla/5.0 HeadlessChrome/131.0',
      '',
      undefined,
    ])
      expect(byMachine({ method: 'GET', userAgent: agent, sentAt, now: later(600) }), String(agent)).toBe(true);
  });

  it('takes a HEAD, a visit within 10 s of sending, and a click 2 s from another link’s for machines', () => {
    expect(byMachine({ method: 'HEAD', userAgent: CHROME, sentAt, now: later(600) })).toBe(true);
    expect(byMachine({ method: 'GET', userAgent: CHROME, sentAt, now: later(9.9) })).toBe(true);
    expect(byMachine({ method: 'GET', userAgent: CHROME, sentAt, now: later(10) })).toBe(false);
    expect(byMachine({ method: 'GET', userAgent: CHROME, sentAt, now: later(600), otherClickAt: later(598.5) })).toBe(true);
    expect(byMachine({ method: 'GET', userAgent: CHROME, sentAt, now: later(600), otherClickAt: later(590) })).toBe(false);
  });
});
