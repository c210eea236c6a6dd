import { emit } from '../outbox.js';
import type { Ctx } from '../context.js';
import { devicesOf, forgetGoneToken } from '../devices/devices.js';
import { addNotices } from '../notices/add.js';
import { whyNotHear } from '../preferences/hears.js';
import { openCredentials } from '../push/credentials.js';
import { MESSAGE_SENT } from '../push/record.js';
import type { PushSenders } from '../push/senders.js';
import type { PushOutcome } from '../../lib/push/outcome.js';
import type { SendContent } from './definition.js';
import { recordStep, skipped, stillToTake, takeStep, type Done, type Taking, type Visit } from './run-record.js';

// A workflow's send step, for one person: a notice in their inbox, or a push to their devices (and,
// as every push is, a notice too). Before anything goes, the person's preferences are asked by the
// one rule every sender asks (preferences/hears.ts), and a skip is recorded with its reason: the
// topic closed to the channel, everything turned off, the topic turned off, no consent to offers;
// for a push also no device. A push's answer is each provider's: sent when one device took it,
// else failed with the provider's answer. A device whose token the provider says is gone is
// forgotten. The notice carries the visit's own key, so a step taken twice adds it once, and a
// `message.sent` (channel, workflow, run, step) is written with the record.
//
// The push goes before its record is written (a network call is never made inside a transaction):
// a server killed between the two sends it again when the step is retried, the window of one post.

/** Devices of one person a push step sends to at most, the most recently seen first. */
export const MAX_STEP_DEVICES = 10;

export interface SendVisit extends Visit {
  appModeId: string;
  workflowId: string;
  step: { key: string; kind: string; channel: 'notice' | 'push'; content: SendContent; topic?: string };
}

/** The notice's key for one visit of a step: a second take of the step finds it there. */
const sendKeyOf = (v: SendVisit) => `${v.runKey}:${v.step.key}:${v.visit}`;

/** The notice and the message.sent of a visit that reached the person, in the step's transaction. */
async function reached(t: Taking, v: SendVisit, source: 'push' | 'workflow'): Promise<void> {
  await addNotices(t.tx, v.appModeId, [
    {
      contactId: v.contactId,
      title: v.step.content.title,
      body: v.step.content.body ?? null,
      link: v.step.content.link ?? null,
      topicKey: v.step.topic ?? null,
      source,
      sendKey: sendKeyOf(v),
    },
  ]);
  await emit(t.tx, MESSAGE_SENT, {
    appModeId: v.appModeId,
    externalId: t.person.externalId,
    data: { message_id: v.workflowId, channel: v.step.channel, workflow_id: v.workflowId, run_id: v.runKey, step: v.step.key },
  });
}

/** A notice to the person's inbox, under the in-app preferences (the inbox is in-app). */
export const sendNoticeStep = (ctx: Ctx, v: SendVisit): Promise<Done> =>
  takeStep(ctx, v, async (t) => {
    const why = await whyNotHear(t.tx, v.appModeId, v.contactId, v.step.topic ?? null, 'in_app');
    if (why) return skipped(why);
    await reached(t, v, 'workflow');
    return { outcome: 'sent' };
  });

/** A push to the person's devices (at most MAX_STEP_DEVICES), with its notice. */
export async function sendPushStep(ctx: Ctx, senders: PushSenders, v: SendVisit): Promise<Done> {
  const record = (done: Done) => recordStep(ctx, v, done);
  if (!(await stillToTake(ctx, v))) return record(skipped('erased'));
  const why = await whyNotHear(ctx, v.appModeId, v.contactId, v.step.topic ?? null, 'push');
  if (why) return record(skipped(why));
  const devices = (await devicesOf(ctx, v.appModeId, [v.contactId])).slice(0, MAX_STEP_DEVICES);
  if (!devices.length) return record(skipped('no_device', 'the person has no device registered for push'));
  const creds = await openCredentials(ctx, v.appModeId);
  const now = ctx.clock.now();
  const content = {
    sendId: sendKeyOf(v),
    title: v.step.content.title,
    body: v.step.content.body ?? null,
    link: v.step.content.link ?? null,
  };
  const outcomes = await Promise.all(
    devices.map((d) =>
      senders
        .send(d, creds, content, now)
        .catch((err: unknown): PushOutcome => ({ kind: 'failed', reason: `not sent: ${(err as Error).message}` })),
    ),
  );
  await Promise.all(
    outcomes.map((o, i) => (o.kind === 'gone' ? forgetGoneToken(ctx, v.appModeId, devices[i]!.token, o.since) : undefined)),
  );
  const sent = outcomes.filter((o) => o.kind === 'sent').length;
  if (sent)
    return takeStep(ctx, v, async (t) => {
      await reached(t, v, 'push');
      return { outcome: 'sent', detail: `${sent} of ${devices.length} devices took it` };
    });
  if (outcomes.every((o) => o.kind === 'gone'))
    return record(skipped('no_device', 'every device’s token was gone (the provider said so); the devices are forgotten'));
  const answer = outcomes.find((o) => o.kind !== 'sent' && o.kind !== 'gone') as Exclude<PushOutcome, { kind: 'sent' }>;
  return record({
    outcome: 'failed',
    reason: answer.kind === 'retry' ? 'provider_unavailable' : 'provider_refused',
    detail: answer.reason,
  });
}
