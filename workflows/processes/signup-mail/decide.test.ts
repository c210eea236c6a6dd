import { describe, expect, it } from 'vitest';
import { signupMailProcess as mail } from './decide.js';

const input = { signupId: 's1' };
const at = '2026-11-29T10:00:00.000Z';

describe('signup-mail decide', () => {
  it('mails once, then ends; a step that kept failing ends the run saying so', () => {
    const first = mail.decide(mail.initialState(input), { kind: 'started', at, input });
    expect(first.command).toMatchObject({ kind: 'call', activity: 'mailSignup', input, retry: { maxAttempts: 8 } });
    const done = mail.decide(first.state, { kind: 'activity_completed', at, activity: 'mailSignup', result: undefined });
    expect(done.command).toEqual({ kind: 'end', outcome: { mailed: true } });
    const failed = mail.decide(first.state, { kind: 'activity_failed', at, activity: 'mailSignup', error: 'smtp down', attempts: 8 });
    expect(failed.command).toEqual({ kind: 'end', outcome: { mailed: false, error: 'smtp down' } });
  });
});
