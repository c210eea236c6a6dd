import { defineProcess } from '../../engine/define.js';
import type { ConversationWakeActivities } from './activities.js';

// A snoozed conversation's timer: wait until the time, then wake it (if it is still snoozed until
// then). One run per snooze; cancelling is never needed, as a wake that finds it awake does nothing.

export interface ConversationWakeInput {
  appModeId: string;
  conversationId: string;
  until: string;
}

const { call, define } = defineProcess<ConversationWakeInput, ConversationWakeInput, ConversationWakeActivities>();

export const conversationWakeProcess = define({
  name: 'conversation-wake',
  version: 1,
  signals: [],
  initialState: (input) => input,
  fairness: ({ appModeId }) => ({ key: appModeId }),
  decide: (state, event) => {
    switch (event.kind) {
      case 'started':
        return { state, command: { kind: 'wait', until: state.until } };
      case 'timer_fired':
        return { state, command: call('wakeConversation', state, { retry: { maxAttempts: 10 }, timeoutMs: 60_000 }) };
      case 'activity_completed':
        return { state, command: { kind: 'end', outcome: { woke: event.result } } };
      case 'activity_failed':
        return { state, command: { kind: 'end', outcome: { woke: false, failed: true } } };
      case 'cancelled':
      case 'signal':
        return { state, command: { kind: 'end', outcome: { woke: false } } };
    }
  },
});
