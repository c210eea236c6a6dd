import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exec, sql } from '../src/db/sql.js';
import { contextOf, systemContext } from '../src/domain/context.js';
import { createEmailMessage } from '../src/domain/email/messages.js';
import { INTERRUPTED } from '../src/domain/email/record.js';
import { EMAILS_AT_ONCE, STEP_PEOPLE } from '../src/domain/email/schedule.js';
import { sendEmailMessage } from '../src/domain/email/sending.js';
import { emailStatistics } from '../src/domain/email/statistics.js';
import type { StaffUser } from '../src/generated/prisma/client.js';
import { openServices, type OpenServices } from '../src/services.js';
import { createTestDatabase } from './support/db.js';
import { freePorts, launch, ready, stopProcess, type Proc } from './support/processes.js';
import { watchRuns } from './support/run-timeline.js';
import { seedApp, TEST_SECRET_KEY, testConfig } from './support/server.js';
import { smtpSink } from './support/smtp.js';

// An email sent to 3,000 people by real server processes (what `npm start` runs, the build in dist/)
// through a real SMTP server the test runs: the server is killed (SIGKILL) while a group of emails
// is in flight (the SMTP server holds its answers to them), and another started. The emails in
// flight at the kill are counted as sent and never sent again (the design: at most once); everyone
// else gets the email exactly once, the sending is done with every person counted sent, nothing
// failed, and one message.sent each.

const PEOPLE = 3_000;
/** Where in the audience (contact order) the held group starts: the middle of the third step. */
const HELD_FROM = 2 * STEP_PEOPLE + 200;
/**
 * The whole sending, from sendEmailMessage to done, kill and restart included, is done within 30 s
 * on a quiet machine; the test holds it to LIVE_WITHIN_MS (a sending that stalls fails) and, past
 * the aim, prints where its run's time went.
 */
const AIM_MS = 30_000;
const LIVE_WITHIN_MS = 120_000;

let dbUrl: string;
let svc: OpenServices;
let smtp: Awaited<ReturnType<typeof smtpSink>>;
const procs: Proc[] = [];

beforeAll(async () => {
  smtp = await smtpSink();
  dbUrl = await createTestDatabase();
  svc = await openServices({ config: testConfig(), url: dbUrl, secretKey: TEST_SECRET_KEY });
});
afterAll(async () => {
  for (const p of procs) await stopProcess(p, 'SIGKILL');
  await svc?.close();
  await smtp?.close();
});

/** A server process sending email to the test's SMTP server. */
function server(port: number): Proc {
  // A 2 s lease (heartbeats 600 ms apart) rather than the default 10 s: the killed server's step is taken up sooner.
  const proc = launch(dbUrl, port, { SMTP_URL: smtp.url, MAIL_FROM: 'Garden Shop <news@shop.test>', EMBEDDED_ENGINE_LEASE_MS: '2000' });
  procs.push(proc);
  return proc;
}

async function until(check: () => Promise<boolean> | boolean, what: string, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await sleep(50);
  }
}

/** An app-mode with `n` people, each with an address, seeded in bulk; answers the staff context and the addresses in contact order. */
async function audience(n: number) {
  const app = await seedApp(svc);
  const appModeId = (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
  const staff = contextOf(svc, { kind: 'staff', staffUser: { id: randomUUID(), name: 'Crash' } as StaffUser, sessionId: 'test' });
  const now = new Date();
  await exec(
    svc,
    sql`INSERT INTO contact (id, app_mode_id, external_id, email, created_at, updated_at)
        SELECT ${appModeId} || '-' || lpad(i::text, 5, '0'), ${appModeId}, 'person-' || i, 'person-' || i || '@example.com', ${now}, ${now}
        FROM generate_series(1, ${n}) i`,
  );
  // Contact order is the order a sending takes people in.
  const addresses = Array.from({ length: n }, (_, i) => `person-${i + 1}@example.com`);
  return { appModeId, staff, addresses };
}

it(
  'after its server is killed with emails in flight and another started, everyone else has the email once and those in flight are counted sent',
  { timeout: 180_000 },
  async () => {
    const [portA, portB] = await freePorts(2);
    // The server starts while the audience is seeded: it sends nothing before sendEmailMessage.
    const first = server(portA!);
    const [{ appModeId, staff, addresses }] = await Promise.all([audience(PEOPLE), ready(first)]);
    const message = await createEmailMessage(staff, appModeId, {
      subject: 'Spring is here',
      blocks: [{ type: 'paragraph', spans: [{ text: 'Our seeds are in: ' }, { text: 'see them', link: 'https://shop.example/seeds' }] }],
    });
    // The kill comes while a whole group is in flight: the SMTP server holds its answers to
    // EMAILS_AT_ONCE people in the middle of the sending (in the order the sending takes people).
    const held = addresses.slice(HELD_FROM, HELD_FROM + EMAILS_AT_ONCE);
    for (const a of held) smtp.tell(a, { hold: 10_000 });

    const timeline = await watchRuns(dbUrl, 'email-send');
    const started = Date.now();
    let took = Infinity;
    let sendingId: string;
    let atKill: number;
    try {
      const sending = await sendEmailMessage(staff, message.id, { everyone: true });
      sendingId = sending.id;
      expect(sending.people).toBe(PEOPLE);
      // The held messages that reach the server (one for each of its pooled connections) stop the
      // handing over: the rest of the group waits in the transport's queue.
      await until(() => smtp.arrived.some((a) => held.includes(a)), 'the held emails in flight', 30_000);
      await sleep(500);
      expect(await stopProcess(first, 'SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
      atKill = smtp.arrived.length;
      expect(atKill).toBeLessThan(PEOPLE / 2);

      const second = server(portB!);
      await ready(second);
      await until(
        async () => (await svc.db.emailVersion.findUniqueOrThrow({ where: { id: sendingId } })).state !== 'sending',
        'the sending done',
        LIVE_WITHIN_MS,
      );
      took = Date.now() - started;
    } finally {
      const lines = await timeline.stop();
      if (took > AIM_MS) console.warn(`the sending took ${took} ms, past its ${AIM_MS} ms aim; its run:\n${lines.join('\n')}`);
    }
    await sleep(300);

    const done = await svc.db.emailVersion.findUniqueOrThrow({ where: { id: sendingId } });
    const statistics = await emailStatistics(systemContext(svc, 'test'), { versionId: sendingId });
    const told = await svc.db.outboxEvent.findMany({ where: { appModeId, topic: 'message.sent' }, select: { externalId: true } });
    const interrupted = (
      await svc.db.emailSend.findMany({ where: { versionId: sendingId, reason: INTERRUPTED }, select: { address: true } })
    ).map((s) => s.address);
    const missed = addresses.filter((a) => !smtp.counts.has(a));
    const twice = addresses.filter((a) => (smtp.counts.get(a) ?? 0) > 1);
    const result = {
      state: done.state,
      people: done.people,
      sent: statistics.sent,
      failed: statistics.failed,
      pending: statistics.pending,
      messageSent: new Set(told.map((t) => t.externalId)).size,
      messageSentRows: told.length,
      missed: missed.length,
      twice: twice.length,
      interrupted: interrupted.length,
    };
    console.log(`email crash: ${atKill!} arrived at the kill, all done in ${took} ms: ${JSON.stringify(result)}`);
    expect(result).toMatchObject({
      state: 'done',
      people: PEOPLE,
      sent: PEOPLE,
      failed: 0,
      pending: 0,
      messageSent: PEOPLE,
      messageSentRows: PEOPLE,
      twice: 0,
    });
    // Only emails in flight at the kill were counted as sent without their answer (all of the held
    // ones that had been marked as leaving; on a loaded machine a few of them were still queued,
    // unmarked, and the next server sent them), and none was sent again: those that had reached the
    // SMTP server have it once, the others none. Everyone else has it once.
    expect(interrupted.length).toBeGreaterThan(0);
    expect(interrupted.length).toBeLessThanOrEqual(EMAILS_AT_ONCE);
    expect(interrupted.filter((a) => !held.includes(a))).toEqual([]);
    expect(missed.filter((a) => !interrupted.includes(a))).toEqual([]);
  },
);
