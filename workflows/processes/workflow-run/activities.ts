import { systemContext, type Services } from '../../../src/domain/context.js';
import { endRun, moveRun, takeStep } from '../../../src/domain/workflows/run-record.js';
import { meetsCondition, setAttribute, tagPerson } from '../../../src/domain/workflows/step-effects.js';
import { sendEmailStep } from '../../../src/domain/workflows/email-step.js';
import { sendGate } from '../../../src/domain/workflows/send-gate.js';
import { sendInAppStep } from '../../../src/domain/workflows/inapp-step.js';
import { sendNoticeStep, sendPushStep } from '../../../src/domain/workflows/send-step.js';
import { providerTokenStore } from '../../../src/domain/push/provider-tokens.js';
import { PushSenders } from '../../../src/domain/push/senders.js';
import { nextTimeOfDay } from '../../../src/domain/workflows/wait-until.js';
import { tryStepWebhook, type WebhookOptions } from '../../../src/domain/workflows/webhook-step.js';
import type { Instant } from '../../engine/types.js';
import type { RunActivities, StepCall } from './decide.js';

// Each step of a run, taken and recorded in one transaction (run-record.ts), so a retried
// activity finds its visit recorded and does nothing twice.

/** When a wait ends: null for a wait for an event alone. */
const waitEnd = (step: StepCall['step'], now: Date, zone: string | null): Date | null => {
  switch (step.kind) {
    case 'wait':
      return new Date(now.getTime() + step.seconds * 1000);
    case 'wait_for_event':
      return step.timeoutSeconds === undefined ? null : new Date(now.getTime() + step.timeoutSeconds * 1000);
    case 'wait_until':
      return nextTimeOfDay(now, step.time, zone);
    default:
      throw new Error(`${step.kind} is not a wait`);
  }
};

export const workflowRunActivities = (svc: Services, opts: WebhookOptions = {}, ctx = systemContext(svc, 'workflow-run')) => {
  // The push senders (connections to the providers, their tokens) last as long as the activities, made on the first push.
  let pushSenders: PushSenders | undefined;
  const senders = () =>
    (pushSenders ??= new PushSenders(svc.config.push, {
      transport: { testTrust: svc.config.outboundTestTrust },
      apnsTokenStore: providerTokenStore(svc),
    }));
  return {
    beginWorkflowWait: async (call) => {
      const done = await takeStep(ctx, call, async ({ tx, person }) => {
        const until = waitEnd(call.step, tx.clock.now(), person.timeZone);
        const waitsFor = call.step.kind === 'wait_for_event' ? call.step.event : undefined;
        if (!until) return { outcome: 'waiting', standing: { state: 'parked', waitsFor: waitsFor! } };
        return { outcome: 'waiting', standing: { state: 'waiting', until, ...(waitsFor && { waitsFor }) } };
      });
      // Parked: no timer. An erased person's run waits no more (its cancel is on its way).
      if (done.reason === 'erased') return { until: ctx.clock.now().toISOString() as Instant };
      return done.until ? { until: done.until.toISOString() as Instant } : {};
    },
    checkWorkflowCondition: async (call) => {
      if (call.step.kind !== 'branch') throw new Error('not a branch');
      const condition = call.step.condition;
      const done = await takeStep(ctx, call, async (t) => ((await meetsCondition(t, condition)) ? { outcome: 'yes' } : { outcome: 'no' }));
      return { matched: done.outcome === 'yes' };
    },
    sendWorkflowMessage: async (call) => {
      const step = call.step;
      if (step.kind !== 'send') throw new Error('not a send step');
      const gate = await sendGate(ctx, { ...call, step });
      if ('done' in gate) return gate.done;
      if ('heldUntil' in gate) return { outcome: 'held', reason: 'outside_window', heldUntil: gate.heldUntil.toISOString() as Instant };
      if (step.channel === 'notice') return sendNoticeStep(ctx, { ...call, step });
      if (step.channel === 'push') return sendPushStep(ctx, senders(), { ...call, step });
      if (step.channel === 'email') return sendEmailStep(ctx, { ...call, step });
      if (step.channel === 'inapp') return sendInAppStep(ctx, { ...call, step });
      throw new Error(`no channel ${String(step.channel)}`);
    },
    postWorkflowWebhook: (call) => {
      if (call.step.kind !== 'webhook') throw new Error('not a webhook step');
      return tryStepWebhook(ctx, { ...call, step: call.step, attempt: call.attempt ?? 1 }, opts);
    },
    setWorkflowAttribute: (call) => {
      const step = call.step;
      if (step.kind !== 'set_attribute') throw new Error('not a set_attribute step');
      return takeStep(ctx, call, (t) => setAttribute(t, step.attribute, step.value));
    },
    tagWorkflowPerson: (call) => {
      const step = call.step;
      if (step.kind !== 'tag') throw new Error('not a tag step');
      return takeStep(ctx, call, (t) => tagPerson(t, step.action, step.tag));
    },
    endWorkflowRun: (end) =>
      endRun(ctx, {
        runKey: end.runKey,
        workflowId: end.workflowId,
        at: end.at,
        outcome: end.outcome,
        ...(end.from && { from: end.from }),
      }),
    moveWorkflowRun: (move) =>
      moveRun(ctx, {
        runKey: move.runKey,
        workflowId: move.workflowId,
        versionId: move.versionId,
        ...(move.waitsFor && { waitsFor: move.waitsFor }),
      }),
  } satisfies RunActivities;
};

export type WorkflowRunActivities = ReturnType<typeof workflowRunActivities>;
