import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverApi, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi, staffSocket } from './support/graphql.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';
import { smtpServer } from './support/smtp.js';

// A sending's progress live, black box over real HTTP, WebSocket (the official graphql-ws client),
// PostgreSQL and a real SMTP server: emailSendingChanged answers the sending as emailSendings does,
// first as it is, then as its steps go (an email put off by the mail server keeps it going, and it
// ends once that email is taken), the counts never going back; a follower resuming after a version
// gets what it missed folded into one answer; another workspace's member is refused (not_found).

let t: TestServer;
let smtp: Awaited<ReturnType<typeof smtpServer>>;
let app: StaffApp;
let api: ReturnType<typeof staffApi>;
const clients: Client[] = [];

beforeAll(async () => {
  smtp = await smtpServer();
  t = await startTestServer({ config: testConfig({ smtpUrl: smtp.url, mailFrom: 'Garden <news@mail.garden.test>' }) });
  app = await staffApp(t, 'Garden');
  api = staffApi(
    () => t.url,
    () => app.owner,
  );
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
  await smtp?.close();
});

type Sending = {
  id: string;
  state: string;
  people: number;
  finishedAt: string | null;
  statistics: { sent: number; failed: number; pending: number; skipped: { reason: string; count: number }[] };
};
type Event = { version: string; reload: boolean; sending: Sending };

const SENDING = 'id state people finishedAt statistics { sent failed pending skipped { reason count } }';

/** Follows emailSendingChanged; `seen` fills as answers come. */
function follow(token: string, id: string, after?: string) {
  const client = staffSocket(t.url, token);
  clients.push(client);
  const seen: Event[] = [];
  const errors: unknown[] = [];
  const stop = client.subscribe<{ emailSendingChanged: Event }>(
    {
      query: `subscription($id: ID!, $after: String) { emailSendingChanged(id: $id, after: $after) { version reload sending { ${SENDING} } } }`,
      variables: { id, after: after ?? null },
    },
    {
      next: ({ data, errors: e }) => (e ? errors.push(...e) : data && seen.push(data.emailSendingChanged)),
      error: (e) => errors.push(e),
      complete: () => {},
    },
  );
  return { seen, errors, stop };
}

/** A sending of a transactional email to `count` new people (marked by a batch attribute), the first one's address put off by the mail server. */
async function sending(count: number) {
  const batch = unique('b');
  const addresses = Array.from({ length: count }, (_, i) => `p${i}-${batch}@example.com`);
  for (const address of addresses) await serverApi(t, app.live.server_key).identify(unique('p'), { email: address, attributes: { batch } });
  // Bob's address is on the suppression list: skipped, and counted as such.
  const bob = `bob-${batch}@example.com`;
  await serverApi(t, app.live.server_key).identify(unique('p'), { email: bob, attributes: { batch } });
  await t.svc.db.emailSuppression.create({ data: { appModeId: app.modes.live, address: bob, reason: 'bounce', createdAt: t.clock.now() } });
  smtp.refuse.set(addresses[0]!, [451, 'Try again later']);
  const made = await api.ok('mutation($m: ID!, $i: EmailMessageInput!) { createEmailMessage(appModeId: $m, input: $i) { id } }', {
    m: app.modes.live,
    i: { subject: 'Your receipt', topic: null, blocks: [{ type: 'paragraph', spans: [{ text: 'Thanks.' }] }] },
  });
  const sent = await api.ok(
    `mutation($id: ID!, $b: JSON!) { sendEmailMessage(id: $id, audience: { attributes: [{ name: "batch", value: $b }] }) { ${SENDING} } }`,
    { id: made.createEmailMessage.id, b: batch },
  );
  return { sending: sent.sendEmailMessage as Sending, addresses };
}

/** Runs the sendings' due steps until `done` holds (the test server's engine runs only when told). */
async function runUntil(done: () => boolean | Promise<boolean>) {
  await expect
    .poll(
      async () => {
        await t.engine.runDue();
        return done();
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

const progressRows = (id: string) =>
  t.svc.db.outboxEvent.count({ where: { topic: 'email.progressed', data: { path: ['sending_id'], equals: id } } });

describe("a sending's progress live", { timeout: 60_000 }, () => {
  it('answers the sending as it is, then as its steps go, to its end; the counts never go back', async () => {
    const { sending: begun, addresses } = await sending(6);
    expect(begun).toMatchObject({ state: 'sending', people: 7 });
    const live = follow(app.owner, begun.id);
    await expect.poll(() => live.seen.length).toBe(1);
    expect(live.seen[0]).toMatchObject({
      reload: true,
      sending: { id: begun.id, state: 'sending', people: 7, statistics: { sent: 0, failed: 0, pending: 0, skipped: [] } },
    });

    // The first step: five sent, Bob skipped, the first address put off, so the sending goes on.
    await runUntil(() => live.seen.at(-1)?.sending.statistics.sent === 5);
    expect(live.seen.at(-1)!.sending).toMatchObject({
      state: 'sending',
      finishedAt: null,
      statistics: { sent: 5, failed: 0, pending: 1, skipped: [{ reason: 'suppressed', count: 1 }] },
    });
    expect(live.seen.at(-1)!.reload).toBe(false);

    // The mail server takes it a minute later: the sending is done, and says so.
    smtp.refuse.delete(addresses[0]!);
    t.clock.advance(61_000);
    await runUntil(() => live.seen.at(-1)?.sending.state === 'done');
    const last = live.seen.at(-1)!.sending;
    expect(last.statistics).toMatchObject({ sent: 6, failed: 0, pending: 0, skipped: [{ reason: 'suppressed', count: 1 }] });
    expect(last.finishedAt).not.toBeNull();
    // It agrees with emailSendings.
    const { messageId } = await t.svc.db.emailVersion.findUniqueOrThrow({ where: { id: begun.id } });
    const listed = await api.ok(`query($id: ID!) { emailSendings(messageId: $id) { edges { node { ${SENDING} } } } }`, { id: messageId });
    expect(listed.emailSendings.edges[0].node).toEqual(last);

    // In order, each answer no older than the one before.
    const versions = live.seen.map((e) => e.version);
    expect([...versions].sort()).toEqual(versions);
    const sent = live.seen.map((e) => e.sending.statistics.sent);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    expect(live.errors).toEqual([]);
    // The steps told it (claimed, answered, done) after their own transactions.
    expect(await progressRows(begun.id)).toBeGreaterThanOrEqual(4);
    live.stop();
  });

  it('folds what a follower missed into one answer when it resumes after a version', async () => {
    const { sending: begun, addresses } = await sending(3);
    smtp.refuse.delete(addresses[0]!);
    const first = follow(app.owner, begun.id);
    await expect.poll(() => first.seen.length).toBe(1);
    const version = first.seen[0]!.version;
    first.stop();

    await runUntil(async () => (await t.svc.db.emailVersion.findUniqueOrThrow({ where: { id: begun.id } })).state === 'done');
    const rows = await progressRows(begun.id);
    expect(rows).toBeGreaterThanOrEqual(3);

    const resumed = follow(app.owner, begun.id, version);
    await expect.poll(() => resumed.seen.at(-1)?.sending.state).toBe('done');
    // Its first answer is no reload, and already holds the end: it was read after every row.
    expect(resumed.seen[0]).toMatchObject({ reload: false, sending: { state: 'done', statistics: { sent: 3, pending: 0 } } });
    await new Promise((r) => setTimeout(r, 1500));
    expect(resumed.seen.length).toBeLessThan(rows);
    expect(resumed.seen.length).toBeLessThanOrEqual(2);
    expect(resumed.errors).toEqual([]);
    resumed.stop();
  });

  it("is refused for another workspace's sending, and for none", async () => {
    const { sending: begun } = await sending(1);
    const stranger = await staffApp(t, 'Elsewhere');
    const refusal = async (token: string, id: string) => {
      const live = follow(token, id);
      await expect.poll(() => live.errors.length).toBeGreaterThan(0);
      expect(live.seen).toEqual([]);
      return JSON.stringify(live.errors);
    };
    expect(await refusal(stranger.owner, begun.id)).toContain('not_found');
    expect(await refusal(app.owner, '00000000-0000-4000-8000-000000000000')).toContain('not_found');
  });
});
