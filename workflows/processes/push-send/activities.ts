import { systemContext, type Services } from '../../../src/domain/context.js';
import { sendPushBatch, StepMemory, type BatchInput, type BatchOptions, type BatchResult } from '../../../src/domain/push/batch.js';
import { providerTokenStore } from '../../../src/domain/push/provider-tokens.js';
import { PushSenders } from '../../../src/domain/push/senders.js';
import { stopPushSend } from '../../../src/domain/push/stop.js';

// A send's steps. The senders (connections to the providers and their tokens) last as long as the
// activities do, one set per server process, as APNs and FCM want them reused, and so does what a
// failed attempt of a step leaves for the next one here. A step run twice sends nothing twice
// (src/domain/push/batch.ts), so the engine may retry it like any step.
export const pushSendActivities = (svc: Services, opts: BatchOptions = {}, ctx = systemContext(svc, 'push-send')) => {
  const senders = new PushSenders(svc.config.push, {
    transport: { testTrust: svc.config.outboundTestTrust },
    apnsTokenStore: providerTokenStore(svc),
  });
  const memory = new StepMemory();
  return {
    sendPushBatch: (input: BatchInput): Promise<BatchResult> => sendPushBatch(ctx, senders, input, opts, memory),
    stopPushSend: (input: { sendId: string; reason: string }): Promise<void> => stopPushSend(ctx, input.sendId, input.reason),
  };
};

export type PushSendActivities = ReturnType<typeof pushSendActivities>;
