import { randomUUID } from 'node:crypto';
import type { Prisma, PushSend } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { conflict, invalid } from '../errors.js';
import { noticeProblems } from '../notices/add.js';
import { emit } from '../outbox.js';
import { audienceSql, readAudience, type AudienceInput } from '../audiences/send-audience.js';
import { payloadProblems } from './payload.js';
import { one, sql } from '../../db/sql.js';

// Staff send a push: a title, a body, a link (a path in the app or an https URL) and a topic, to
// one person, everyone, or the people an attribute filter finds. The send is kept and handed to
// its durable process (workflows/processes/push-send) through the outbox row written with it, so
// it goes out even when this server stops right after. Every push sent is also a notice, so the
// content follows the notice's rules; the payload must fit every provider before anything is sent.

/** The outbox topic that starts a send's process. */
export const PUSH_REQUESTED = 'push.requested';

export interface PushInput {
  title: string;
  body?: string | null;
  link?: string | null;
  /** A topic's key: people who turned it off by push (or everything off, or lack consent for offers) get nothing. */
  topic?: string | null;
  audience: AudienceInput;
}

export async function sendPush(ctx: Ctx<StaffCaller>, appModeId: string, input: PushInput): Promise<PushSend> {
  const id = randomUUID();
  const content = { sendId: id, title: input.title, body: input.body || null, link: input.link || null };
  const errors = noticeProblems(content);
  if (!errors.length) errors.push(...payloadProblems(content));
  const topicKey = input.topic ?? null;
  if (topicKey !== null) {
    const topic = await ctx.db.preferenceTopic.findFirst({
      where: { appModeId, key: topicKey, archivedAt: null },
      select: { channels: true },
    });
    if (!topic) errors.push({ field: 'topic', message: 'is not a topic of this app' });
    else if (!topic.channels.includes('push'))
      errors.push({ field: 'topic', message: 'does not go by push: add push to its channels to send pushes under it' });
  }
  if (errors.length) throw invalid(errors);
  const audience = await readAudience(ctx, appModeId, input.audience);
  if (!(await ctx.db.pushCredential.count({ where: { appModeId } })))
    throw conflict(
      'push_credentials_unset',
      'The app has no push credentials: set those of APNs, FCM or Web Push (setApnsCredentials, setFcmCredentials, setVapidKeys) first.',
    );

  return transaction(ctx, async (tx) => {
    const { devices } = (await one<{ devices: number }>(
      tx,
      sql`
      SELECT count(*)::int AS devices FROM device d JOIN contact k ON k.id = d.contact_id
      WHERE d.app_mode_id = ${appModeId} AND k.app_mode_id = ${appModeId} AND ${audienceSql(audience)}`,
    ))!;
    const send = await tx.db.pushSend.create({
      data: {
        id,
        appModeId,
        title: content.title,
        body: content.body,
        link: content.link,
        topicKey,
        audience: audience as Prisma.InputJsonValue,
        state: 'sending',
        devices,
        sentBy: ctx.caller.staffUser.id,
        createdAt: tx.clock.now(),
      },
    });
    await emit(tx, PUSH_REQUESTED, { appModeId, data: { send_id: id } });
    return send;
  });
}
