import type { Notice } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { conflict, invalidField, notFound } from '../errors.js';
import { hears } from '../preferences/hears.js';
import { addNotice, type NoticeContent } from './add.js';

// A team member posts a card to one person's inbox without a push. The inbox is in-app, so the
// person's in-app preferences govern it: a topic must go in-app, and a person who turned it off in-app
// (or turned everything off) is not posted to; without a topic only everything-off holds.

export async function postNotice(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  externalId: string,
  input: NoticeContent & { topic?: string | null },
): Promise<Notice> {
  return transaction(ctx, async (tx) => {
    const contact = await tx.db.contact.findUnique({
      where: { appModeId_externalId: { appModeId, externalId } },
      select: { id: true, appModeId: true },
    });
    if (!contact) throw notFound('No such contact.');
    const topicKey = input.topic ?? null;
    if (topicKey !== null) {
      const topic = await tx.db.preferenceTopic.findFirst({ where: { appModeId, key: topicKey, archivedAt: null } });
      if (!topic) throw invalidField('topic', 'is not a topic of this app');
      if (!topic.channels.includes('in_app'))
        throw invalidField('topic', 'does not go in-app: add in_app to its channels to post notices under it');
    }
    if (!(await hears(tx, contact, topicKey, 'in_app'))) {
      throw conflict(
        'unsubscribed',
        topicKey ? `The person turned "${topicKey}" off in-app, or turned everything off.` : 'The person turned everything off.',
      );
    }
    return addNotice(tx, appModeId, { ...input, contactId: contact.id, topicKey, source: 'staff', postedBy: ctx.caller.staffUser.id });
  });
}
