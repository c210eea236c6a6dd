import { systemContext, type Services } from '../../../src/domain/context.js';
import { wakeConversation } from '../../../src/domain/inbox/snooze.js';

export const conversationWakeActivities = (svc: Services, ctx = systemContext(svc, 'conversation-wake')) => ({
  wakeConversation: (input: { appModeId: string; conversationId: string; until: string }): Promise<boolean> => wakeConversation(ctx, input),
});

export type ConversationWakeActivities = ReturnType<typeof conversationWakeActivities>;
