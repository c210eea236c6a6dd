import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { buildActivities } from '../workflows/processes/activities.js';
import { emailSendActivities } from '../workflows/processes/email-send/activities.js';
import { createTestDatabase } from './support/db.js';
import { staffApi } from './support/graphql.js';
import { modeIds, serverApi, signedIn, unique } from './support/factories.js';
import { seedApp, startTestServer, testConfig, type TestServer } from './support/server.js';
import { smtpServer } from './support/smtp.js';
import type { OpenServices } from '../src/services.js';

// A sending that survives its server stopping after a step did its work and before the engine kept
// its result: the next server on the same database takes the sending up where it was, and nobody gets
// the email twice. Steps of 4 people, so 10 people make 3 steps.

const PEOPLE = 10;
const STEP = 4;
const clock = new ManualClock();
let smtp: Awaited<ReturnType<typeof smtpServer>>;
let dbUrl: string;
let servers: TestServer[] = [];

beforeAll(async () => {
  smtp = await smtpServer();
  dbUrl = await createTestDatabase();
});
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined);
  await smtp?.close();
});

/** A server process on the shared database whose sendings take steps of STEP people; `step` may wrap each step. */
async function server(step?: (real: () => Promise<unknown>, call: number) => Promise<unknown>): Promise<TestServer> {
  const s = await startTestServer({
    dbUrl,
    clock,
    config: testConfig({ smtpUrl: smtp.url }),
    activities: (svc: OpenServices) => {
      const acts = { ...buildActivities(svc), ...emailSendActivities(svc, { stepPeople: STEP }) };
      let calls = 0;
      const real = acts.sendEmailBatch;
      if (step) acts.sendEmailBatch = (input) => step(() => real(input), ++calls) as ReturnType<typeof real>;
      return acts;
    },
  });
  servers.push(s);
  return s;
}

async function settle(s: TestServer) {
  for (let i = 0; i < 20; i++) if (!(await s.engine.runDue())) return;
}

it('takes a sending up again after the server stopped before its step was kept, sending nobody the email twice', async () => {
  const first = await server(async (real, call) => {
    const result = await real();
    if (call === 2) throw new Error('the server stopped before the step was kept');
    return result;
  });
  const app = await seedApp(first.svc);
  const m = (await modeIds(first, app)).live;
  const owner = await signedIn(first, app.ownerEmail, app.ownerPassword);
  const api = staffApi(
    () => first.url,
    () => owner,
  );
  const batch = unique('restart');
  const addresses: string[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const address = `${batch}-${i}@example.com`;
    addresses.push(address);
    await serverApi(first, app.live.server_key).identify(unique('p'), { email: address });
  }
  const { createEmailMessage } = await api.ok(
    'mutation($m: ID!) { createEmailMessage(appModeId: $m, input: { subject: "Back in stock", blocks: [{ type: "paragraph", spans: [{ text: "Yes." }] }] }) { id } }',
    { m },
  );
  const { sendEmailMessage } = await api.ok(
    'mutation($id: ID!) { sendEmailMessage(id: $id, audience: { everyone: true }) { id people } }',
    {
      id: createEmailMessage.id,
    },
  );
  expect(sendEmailMessage.people).toBe(PEOPLE);
  await settle(first);
  const got = () => addresses.map((a) => smtp.received.filter((r) => r.envelope.to.includes(a)).length);
  expect(got().filter((n) => n === 1)).toHaveLength(2 * STEP);
  await first.close();
  servers = servers.filter((s) => s !== first);

  const second = await server();
  clock.advance(2_000); // the engine's pause before it tries a failed step again
  await settle(second);
  expect(got()).toEqual(Array(PEOPLE).fill(1));
  const sending = await second.svc.db.emailVersion.findUniqueOrThrow({ where: { id: sendEmailMessage.id } });
  expect(sending.state).toBe('done');
  expect(await second.svc.db.emailSend.count({ where: { versionId: sending.id, state: 'sent' } })).toBe(PEOPLE);
  const told = await second.svc.db.outboxEvent.findMany({ where: { appModeId: m, topic: 'message.sent' } });
  expect(told).toHaveLength(PEOPLE);
  expect(await second.engine.describe(sending.id)).toMatchObject({ state: 'ended', outcome: { finished: true } });
});
