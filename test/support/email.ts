import { randomUUID } from 'node:crypto';
import { emailToken, emailTokenKey, type EmailTokenPurpose } from '../../src/domain/email/tokens.js';
import { serverApi, unique, type StaffApp } from './factories.js';
import type { TestServer } from './server.js';

// An email as the sender leaves it (a message, the version it sent, the send to one person or a
// test copy), made through the database for the tests of the link routes, and its tokens.

export interface SentForTest {
  messageId: string;
  versionId: string;
  sendId: string;
  token: (purpose: EmailTokenPurpose, link?: number) => string;
}

export async function sentEmail(
  t: TestServer,
  input: { appModeId: string; contactId: string | null; address: string; topicId: string | null; links: string[]; sentAt?: Date },
): Promise<SentForTest> {
  const now = input.sentAt ?? t.clock.now();
  const message = await t.svc.db.emailMessage.create({
    data: {
      id: randomUUID(),
      appModeId: input.appModeId,
      name: 'News',
      subject: 'What is new',
      blocks: [],
      topicId: input.topicId,
      createdAt: now,
      updatedAt: now,
    },
  });
  const version = await t.svc.db.emailVersion.create({
    data: {
      id: randomUUID(),
      messageId: message.id,
      appModeId: input.appModeId,
      number: 1,
      subject: message.subject,
      preheader: '',
      html: '<p>…</p>',
      text: '…',
      links: input.links,
      topicId: input.topicId,
      createdAt: now,
    },
  });
  const send = await t.svc.db.emailSend.create({
    data: {
      id: randomUUID(),
      appModeId: input.appModeId,
      versionId: version.id,
      messageId: message.id,
      contactId: input.contactId,
      test: input.contactId === null,
      address: input.address,
      mailMessageId: `${randomUUID()}@crm.test`,
      state: 'sent',
      createdAt: now,
    },
  });
  const key = emailTokenKey(t.svc);
  return {
    messageId: message.id,
    versionId: version.id,
    sendId: send.id,
    token: (purpose, link = 0) => emailToken(key, { sendId: send.id, purpose, link }),
  };
}

/** A person of the app's live mode with an address (and a language when given), and an email sent to them a minute ago. */
export async function personWithEmail(
  t: TestServer,
  app: StaffApp,
  opts: { topicId: string | null; links?: string[]; language?: string },
): Promise<{ externalId: string; contactId: string; sent: SentForTest }> {
  const externalId = unique('reader');
  await serverApi(t, app.live.server_key).identify(externalId, {
    email: 'ada@example.com',
    ...(opts.language ? { language: opts.language } : {}),
  });
  const contact = await t.svc.db.contact.findUniqueOrThrow({ where: { appModeId_externalId: { appModeId: app.modes.live, externalId } } });
  const sent = await sentEmail(t, {
    appModeId: app.modes.live,
    contactId: contact.id,
    address: 'ada@example.com',
    topicId: opts.topicId,
    links: opts.links ?? [],
    sentAt: new Date(t.clock.now().getTime() - 60_000),
  });
  return { externalId, contactId: contact.id, sent };
}
