import { defineProcess } from '../../engine/define.js';
import type { SignupMailActivities } from './activities.js';

// A sign-up's mail (src/domain/signup/mail.ts): one step, tried again while the mail server refuses
// for now or cannot be reached; it sends once however often it runs. One run per sign-up.

export interface SignupMailInput {
  signupId: string;
}

const { call, define } = defineProcess<SignupMailInput, SignupMailInput, SignupMailActivities>();

export const signupMailProcess = define({
  name: 'signup-mail',
  version: 1,
  signals: [],
  initialState: (input) => input,
  decide: (state, event) => {
    switch (event.kind) {
      case 'started':
        return { state, command: call('mailSignup', state, { retry: { maxAttempts: 8 }, timeoutMs: 60_000 }) };
      case 'activity_completed':
        return { state, command: { kind: 'end', outcome: { mailed: true } } };
      case 'activity_failed':
        return { state, command: { kind: 'end', outcome: { mailed: false, error: event.error } } };
      case 'timer_fired':
      case 'cancelled':
      case 'signal':
        return { state, command: { kind: 'end', outcome: { mailed: false } } };
    }
  },
});
