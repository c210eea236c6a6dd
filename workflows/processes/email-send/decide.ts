import { REST_MS, ROUNDS, STEP_TIMEOUT_MS } from '../../../src/domain/email/schedule.js';
import { steppedSend } from '../stepped-send.js';

// One sending of an email, step by step (stepped-send.ts): each step sends the emails put off that
// are due and the next page of the audience, and says when the next step is to come (at once, or
// when the next email put off is due) or that the sending is over.

export const emailSendProcess = steppedSend({
  name: 'email-send',
  version: 1,
  step: 'sendEmailBatch',
  stop: 'stopEmailSend',
  stepTimeoutMs: STEP_TIMEOUT_MS,
  restMs: REST_MS,
  rounds: ROUNDS,
});
