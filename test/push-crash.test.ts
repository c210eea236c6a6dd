import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contextOf, systemContext } from '../src/domain/context.js';
import { setApnsCredentials } from '../src/domain/push/credentials.js';
import { INTERRUPTED } from '../src/domain/push/record.js';
import { PUSHES_AT_ONCE, WRITE_AT } from '../src/domain/push/schedule.js';
import { sendPush } from '../src/domain/push/send.js';
import type { StaffUser } from '../src/generated/prisma/client.js';
import { openServices, type OpenServices } from '../src/services.js';
import { createTestDatabase } from './support/db.js';
import { makeTestCertificate } from './support/https-receiver.js';
import { freePorts, launch, ready, stopProcess, type Proc } from './support/processes.js';
import { makeApnsKey, seedIphones, startApnsStandin, type ApnsStandin } from './support/push-standins.js';
import { watchRuns } from './support/run-timeline.js';
import { seedApp, TEST_SECRET_KEY, testConfig } from './support/server.js';

// A push to 5,000 devices (one iPhone each) carried out by real server processes (what `npm start`
// runs, the build in dist/) through the APNs stand-in: the server is killed (SIGKILL) mid-send and
// another started; and a send whose server has its database connections cut every second. Each
// time every device gets the push exactly once, each person the notice and one message.sent, and
// nothing is counted failed.

const DEVICES = 5_000;
const BUNDLE = 'com.example.crash';
/**
 * The whole send, from sendPush to done, kill and restart included, is done within 30 s on a quiet
 * machine (the killed send 17 to 28 s there, the cut one 5 to 14 s). Beside the rest of the suite on a
 * busy 2-core machine it has taken up to 53 s. The cut send once took over 150 s: the answers a failed
 * attempt left were written again in one statement that took longer than the second between cuts, so
 * every attempt failed the same way and its cursor never moved; its writes are now in parts that shrink
 * until they fit between cuts (src/domain/push/batch.ts), and with 3 ms of work added to each answer
 * written it was done in 48 s where it had not finished in 190 s. The tests hold it to LIVE_WITHIN_MS
 * (a send that stalls fails) and, past the aim, print where its run's time went.
 */
const AIM_MS = 30_000;
const LIVE_WITHIN_MS = 90_000;
/** The server processes' name in pg_stat_activity: their connections are the ones cut. */
const APP_NAME = 'push-crash-server';

const key = makeApnsKey();
let dir: string;
let dbUrl: string;
let svc: OpenServices;
let apns: ApnsStandin;
let trust: string;
const procs: Proc[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'crm-push-crash-'));
  const cert = await makeTestCertificate();
  await writeFile(path.join(dir, 'ca.pem'), cert.cert);
  apns = await startApnsStandin(cert, { key, bundleId: BUNDLE });
  trust = `allow=${apns.hostPort};ca=${path.join(dir, 'ca.pem')}`;
  dbUrl = await createTestDatabase();
  svc = await openServices({ config: testConfig(), url: dbUrl, secretKey: TEST_SECRET_KEY });
});
afterAll(async () => {
  for (const p of procs) await stopProcess(p, 'SIGKILL');
  await svc?.close();
  await apns?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A server process sending pushes to the stand-in. */
function server(port: number): Proc {
  const proc = launch(dbUrl, port, {
    OUTBOUND_TEST_TRUST: trust,
    APNS_URL: apns.origin,
    APNS_SANDBOX_URL: apns.origin,
    PGAPPNAME: APP_NAME,
    // A 2 s lease (heartbeats 600 ms apart) rather than the default 10 s: the killed server's step is taken up sooner.
    EMBEDDED_ENGINE_LEASE_MS: '2000',
  });
  procs.push(proc);
  return proc;
}

/** An app with APNs credentials and `n` people with an iPhone each, seeded in bulk; answers the staff context and the tokens. */
async function audience(n: number) {
  const app = await seedApp(svc);
  const appModeId = (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
  const staff = contextOf(svc, { kind: 'staff', staffUser: { id: randomUUID() } as StaffUser, sessionId: 'test' });
  await setApnsCredentials(staff, appModeId, { keyP8: key.p8, keyId: key.keyId, teamId: key.teamId, bundleId: BUNDLE, production: true });
  const tokens = await seedIphones(svc, appModeId, n);
  return { appModeId, staff, tokens };
}

const send = (staff: Awaited<ReturnType<typeof audience>>['staff'], appModeId: string) =>
  sendPush(staff, appModeId, { title: 'Your order shipped', body: 'It arrives on Friday', audience: { everyone: true } });

/** The database's reads, tried again while a connection is being cut. */
async function steady<T>(read: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await read();
    } catch (err) {
      if (i > 20) throw err;
      await sleep(100);
    }
  }
}

async function until(check: () => Promise<boolean> | boolean, what: string, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await sleep(50);
  }
}

/** What the send came to, and how many pushes each device got. */
async function outcome(appModeId: string, sendId: string, tokens: string[]) {
  const done = await steady(() => svc.db.pushSend.findUniqueOrThrow({ where: { id: sendId } }));
  const notices = await steady(() => svc.db.notice.count({ where: { appModeId, sendKey: sendId } }));
  const sent = await steady(() =>
    svc.db.outboxEvent.findMany({ where: { appModeId, topic: 'message.sent' }, select: { externalId: true } }),
  );
  const interrupted = await steady(() => svc.db.pushDelivery.count({ where: { sendId, detail: INTERRUPTED } }));
  return {
    counts: {
      state: done.state,
      sent: done.sent,
      failed: done.failed,
      people: done.people,
      notices,
      messageSent: new Set(sent.map((r) => r.externalId)).size,
      messageSentRows: sent.length,
    },
    missed: tokens.filter((t) => !apns.counts.has(t)).length,
    twice: tokens.filter((t) => (apns.counts.get(t) ?? 0) > 1).length,
    interrupted,
  };
}

/** A send from its start until `done` says it is over, with the time it took; past the aim (or failed), says where its run's time went. */
async function timed<T>(done: (started: number) => Promise<T>): Promise<T & { took: number }> {
  const timeline = await watchRuns(dbUrl, 'push-send');
  const started = Date.now();
  let took = Infinity;
  try {
    const answer = await done(started);
    took = Date.now() - started;
    return { ...answer, took };
  } finally {
    const lines = await timeline.stop();
    if (took > AIM_MS) console.warn(`the send took ${took} ms, past its ${AIM_MS} ms aim; its run:\n${lines.join('\n')}`);
  }
}

const everything = {
  counts: {
    state: 'done',
    sent: DEVICES,
    failed: 0,
    people: DEVICES,
    notices: DEVICES,
    messageSent: DEVICES,
    messageSentRows: DEVICES,
  },
  missed: 0,
  twice: 0,
};

it(
  'after its server is killed mid-send and another started, every device has the push once and every person the notice',
  { timeout: 240_000 },
  async () => {
    const [portA, portB] = await freePorts(2);
    // The server starts while the audience is seeded: it sends nothing before sendPush.
    const first = server(portA!);
    const [{ appModeId, staff, tokens }] = await Promise.all([audience(DEVICES), ready(first)]);
    // The kill comes while a whole step's worth of posts is in flight: the stand-in holds its answers
    // to PUSHES_AT_ONCE devices in the middle of the send (in the order the send takes people).
    const inOrder = (
      await svc.db.device.findMany({ where: { appModeId }, orderBy: { contactId: 'asc' }, select: { tokenSealed: true } })
    ).map((d) => svc.secrets.open(d.tokenSealed));
    const held = inOrder.slice(2_000, 2_000 + PUSHES_AT_ONCE);
    // Held until the kill (then answered, to a connection gone), not for a fixed while: in flight at the kill however slow the machine.
    let release!: () => void;
    const killed = new Promise<void>((resolve) => (release = resolve));
    for (const token of held) apns.tell(token, { hold: killed });

    const { id, atKill, took } = await timed(async () => {
      const { id } = await send(staff, appModeId);
      await until(() => held.every((t) => apns.arrived.includes(t)), 'the held posts in flight', 20_000);
      await sleep(200);
      expect(await stopProcess(first, 'SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
      release();
      const atKill = tokens.filter((t) => apns.arrived.includes(t)).length;
      expect(atKill).toBeLessThan(DEVICES / 2);

      const second = server(portB!);
      await ready(second);
      await until(
        async () => (await steady(() => svc.db.pushSend.findUniqueOrThrow({ where: { id } }))).state !== 'sending',
        'the send done',
        LIVE_WITHIN_MS,
      );
      return { id, atKill };
    });
    // The stand-in counts a held push when it answers (to a connection gone): then anything sent twice has come too.
    await until(() => held.every((t) => apns.counts.has(t)), 'the held pushes answered', 15_000);
    await sleep(300);

    const result = await outcome(appModeId, id, tokens);
    console.log(`push crash: ${atKill} posted at the kill, all done in ${took} ms: ${JSON.stringify(result)}`);
    expect(result).toMatchObject(everything);
    // The posts in flight at the kill were settled as sent by the next step, and nothing else.
    expect(result.interrupted).toBe(PUSHES_AT_ONCE);
  },
);

it(
  'with its database connections cut every second, sends every device the push once and every person the notice',
  { timeout: 240_000 },
  async () => {
    const [port] = await freePorts(1);
    const proc = server(port!);
    const [{ appModeId, staff, tokens }] = await Promise.all([audience(DEVICES), ready(proc)]);

    const killer = new pg.Client({ connectionString: dbUrl });
    await killer.connect();
    let cuts = 0;
    let rounds = 0;
    try {
      const { id, took } = await timed(async (started) => {
        const { id } = await send(staff, appModeId);
        await until(
          async () => {
            if (Date.now() - started >= rounds * 1000) {
              rounds++;
              cuts += (
                await killer.query(
                  `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
                  [APP_NAME],
                )
              ).rowCount!;
            }
            return (await steady(() => svc.db.pushSend.findUniqueOrThrow({ where: { id } }))).state !== 'sending';
          },
          'the send done',
          LIVE_WITHIN_MS,
        );
        return { id };
      });
      await sleep(300);
      const result = await outcome(appModeId, id, tokens);
      console.log(
        `push with connections cut: ${cuts} connections cut, all done in ${took} ms, ${result.interrupted} settled as sent without an answer`,
      );
      expect(cuts).toBeGreaterThan(0);
      expect(result).toMatchObject(everything);
    } finally {
      await killer.end();
    }
  },
);
