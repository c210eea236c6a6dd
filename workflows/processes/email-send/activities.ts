import { systemContext, type Services } from '../../../src/domain/context.js';
import { sendEmailBatch, type EmailStepInput, type EmailStepOptions, type EmailStepResult } from '../../../src/domain/email/batch.js';
import { stopEmailSending } from '../../../src/domain/email/stop.js';

// A sending's steps. A step run twice sends nothing twice (src/domain/email/batch.ts), so the engine
// may retry it like any step.
export const emailSendActivities = (svc: Services, opts: EmailStepOptions = {}, ctx = systemContext(svc, 'email-send')) => ({
  sendEmailBatch: (input: EmailStepInput): Promise<EmailStepResult> => sendEmailBatch(ctx, input, opts),
  stopEmailSend: async (input: { sendId: string; reason: string }): Promise<void> =>
    void (await stopEmailSending(ctx, input.sendId, input.reason)),
});

export type EmailSendActivities = ReturnType<typeof emailSendActivities>;
