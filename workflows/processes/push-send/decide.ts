import { BATCH_TIMEOUT_MS, REST_MS, ROUNDS } from '../../../src/domain/push/schedule.js';
import { steppedSend, type SendInput, type SendState } from '../stepped-send.js';

// One push send, step by step (stepped-send.ts): each step sends the throttled devices due again and
// the next page of the audience, and says when the next step is to come (at once, after a
// provider's pause, or when the next throttled device is due) or that the send is over.

export type PushSendInput = SendInput;
export type PushSendState = SendState;

export const pushSendProcess = steppedSend({
  name: 'push-send',
  version: 1,
  step: 'sendPushBatch',
  stop: 'stopPushSend',
  stepTimeoutMs: BATCH_TIMEOUT_MS,
  restMs: REST_MS,
  rounds: ROUNDS,
});
