// Email fan-out: N people with an address (seeded in bulk by SQL), one email sent to everyone on the
// staff side and carried out by the email-send process through SMTP to a local SMTP server: every
// person claimed, their email made (tokens for each link, the open, the unsubscribe; the headers),
// handed over, recorded, a message.sent each. The SMTP server runs in a process of its own, as a mail
// server does. On both engines' send process, one after the other, on the same people and the same
// database: the embedded engine (wired as `npm start` wires it without TEMPORAL_ADDRESS), restarted
// halfway (the engine stopped and another started); then, when TEMPORAL_ADDRESS names a Temporal
// server, the Temporal engine as the service runs it there: the server's side (the Temporal client
// starting runs from the outbox, wired as `npm start` wires it) in this process, and the worker as
// `npm run worker` runs it (dist/workflows/temporal/worker.js) in a process of its own, on a task
// queue of this run's; halfway the worker is stopped (SIGTERM) and another started, and the workflow
// goes on. Without TEMPORAL_ADDRESS the Temporal half is skipped, and the output says so. Either way
// every person must get each email once. Beside them the floor, in the same run: the same number of
// pre-rendered emails sent by nodemailer (pooled as the service's transport is) from a plain loop, as
// many at once as a step hands over, to the same server. Run by bench/run.ts, or alone:
// `npx tsx bench/email.ts [people]` (BENCH_EMAIL_PEOPLE for npm run bench; 100,000 by default).
import { randomUUID } from 'node:crypto';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createTransport } from 'nodemailer';
import { readConfig, type Config } from '../src/config.js';
import { exec, sql } from '../src/db/sql.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { contextOf, systemContext } from '../src/domain/context.js';
import { createEmailMessage } from '../src/domain/email/messages.js';
import { EMAILS_AT_ONCE } from '../src/domain/email/schedule.js';
import { mimeTemplate, personalMime } from '../src/domain/email/mime.js';
import { sendEmailMessage } from '../src/domain/email/sending.js';
import type { StaffUser } from '../src/generated/prisma/client.js';
import { openServices, type OpenServices } from '../src/services.js';
import { EmbeddedEngine } from '../workflows/engine/embedded.js';
import { createDurableEngine } from '../workflows/engine/engine.js';
import { buildActivities } from '../workflows/processes/activities.js';
import { processes } from '../workflows/processes/registry.js';
import { PROCESS_STARTS, startProcesses } from '../workflows/processes/starts.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';
import { stop } from './processes.js';

const PEOPLE = Number(process.env.BENCH_EMAIL_PEOPLE ?? 100_000);

/** One engine's sending: from the staff's sendEmailMessage to the sending done, a restart halfway included. */
export interface EmailEngineRun {
  engine: 'embedded' | 'temporal';
  serviceMs: number;
  /** How long the restart took: the old engine or worker stopping (its steps in hand ending) and the new one starting (a worker builds its workflow bundle). */
  restartMs: number;
  /** People the SMTP server never got this sending's email for, and got it more than once for (both should be 0). */
  missed: number;
  twice: number;
  sent: number;
  messageSent: number;
}

export interface EmailBenchResult {
  people: number;
  seedMs: number;
  floorMs: number;
  /** Bare SMTP: the same email made as MIME once and handed to nodemailer as it is (the cost left when nothing but SMTP is done). */
  bareMs: number;
  /** The embedded engine's sending, then the Temporal engine's (when TEMPORAL_ADDRESS is set). */
  runs: EmailEngineRun[];
  /** Why the Temporal half did not run, when it did not. */
  temporalSkipped: string | null;
}

const TEMPORAL_SKIPPED =
  'TEMPORAL_ADDRESS is not set, so the email-send process was measured on the embedded engine only; point TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE) at a Temporal server to measure it on Temporal too';

/** The SMTP server (bench/smtp-sink.ts) in a process of its own, and a way to ask it what it got. */
async function smtpSink() {
  const child = fork(fileURLToPath(new URL('./smtp-sink.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] });
  const answer = <T>(ask: string, key: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (!(key in m)) return;
        child.off('message', on);
        resolve(m[key] as T);
      };
      child.on('message', on);
      if (ask) child.send({ ask });
    });
  const port = await answer<number>('', 'port');
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    size: () => answer<number>('size', 'size'),
    reset: () => answer<boolean>('reset', 'reset'),
    counts: async () => new Map(await answer<[string, number][]>('counts', 'counts')),
    close: async () => {
      child.disconnect();
      await once(child, 'exit');
    },
  };
}

/**
 * The Temporal worker as `npm run worker` runs it (dist/, built by withBenchDatabase), in a process of
 * its own on the run's task queue, sending through the SMTP server; answers once it serves the queue.
 */
async function workerProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../dist/workflows/temporal/worker.js', import.meta.url))], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  let spoke = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('worker on task queue')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before serving: ${said.slice(-2000)}${spoke}`)));
  });
  // The SDK logs its worker's states there, several lines each: kept (the end of it) for an error, not shown.
  child.stderr!.on('data', (chunk: Buffer) => (spoke = (spoke + chunk.toString()).slice(-4000)));
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal === null) console.error(`  the worker exited (${code}): ${spoke}`);
  });
  await ready;
  child.stdout!.resume();
  return child;
}

type Sink = Awaited<ReturnType<typeof smtpSink>>;

/**
 * Waits for a sending to be done, restarting its engine once the SMTP server has half of the people;
 * answers the time from `start` and how long the restart took.
 */
async function untilDone(
  svc: OpenServices,
  sink: Sink,
  versionId: string,
  people: number,
  start: number,
  restart: () => Promise<void>,
): Promise<{ serviceMs: number; restartMs: number }> {
  let restartMs = 0;
  let restarted = false;
  let seen = -1;
  let movedAt = performance.now();
  for (;;) {
    const now = await svc.db.emailVersion.findUniqueOrThrow({ where: { id: versionId }, select: { state: true } });
    if (now.state !== 'sending') break;
    const size = await sink.size();
    if (size !== seen) [seen, movedAt] = [size, performance.now()];
    else if (performance.now() - movedAt > STALLED_MS)
      throw new Error(`the sending stalled: ${size} of ${people} people sent, nothing more for ${STALLED_MS / 1000} s`);
    if (!restarted && size >= people / 2) {
      restarted = true;
      const at = performance.now();
      await restart();
      restartMs = performance.now() - at;
    }
    await sleep(50);
  }
  return { serviceMs: performance.now() - start, restartMs };
}

/** No email reaching the SMTP server for this long ends the benchmark with an error rather than a hang (a step that keeps failing rests 60 s between rounds). */
const STALLED_MS = 300_000;

/** What the SMTP server got of a sending (it was told to forget what came before), and what the service counted. */
async function tally(svc: OpenServices, sink: Sink, people: number, versionId: string, appModeId: string, messageSentBefore: number) {
  const sent = await svc.db.emailSend.count({ where: { versionId, state: 'sent' } });
  const messageSent = (await svc.db.outboxEvent.count({ where: { appModeId, topic: 'message.sent' } })) - messageSentBefore;
  const counts = await sink.counts();
  let missed = 0;
  let twice = 0;
  for (let i = 1; i <= people; i++) {
    const n = counts.get(`person-${i}@example.com`) ?? 0;
    if (n === 0) missed++;
    if (n > 1) twice++;
  }
  return { sent, messageSent, missed, twice };
}

export async function benchEmail(
  url: string,
  secretKey: string,
  people = PEOPLE,
  temporalAddress = process.env.TEMPORAL_ADDRESS || undefined,
): Promise<EmailBenchResult> {
  const sink = await smtpSink();
  const config = { ...readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), smtpUrl: sink.url, mailFrom: 'Bench <news@bench.test>' };
  try {
    const svc = await openServices({ config, url, secretKey, listen: true });
    const engineOn = () => {
      const engine = new EmbeddedEngine(svc, processes, buildActivities(svc));
      engine.startWorker();
      return engine;
    };
    let engine = engineOn();
    svc.outbox.consume(PROCESS_STARTS, startProcesses(engine, svc));
    let seedMs: number;
    let floorMs: number;
    let bareMs: number;
    let embedded: EmailEngineRun;
    let appModeId: string;
    let messageId: string;
    const staffUser = { id: randomUUID(), name: 'Bench' } as StaffUser;
    try {
      const ctx = systemContext(svc, 'bench');
      const ws = await svc.db.workspace.create({ data: { id: randomUUID(), name: 'Email bench' } });
      const app = await createApp(ctx, { workspaceId: ws.id, name: 'Email bench app' });
      appModeId = (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
      const staff = contextOf(svc, { kind: 'staff', staffUser, sessionId: 'bench' });

      const seedStart = performance.now();
      await exec(
        svc,
        sql`INSERT INTO contact (id, app_mode_id, external_id, email)
            SELECT ${appModeId} || '-' || lpad(i::text, 7, '0'), ${appModeId}, 'person-' || i, 'person-' || i || '@example.com'
            FROM generate_series(1, ${people}) i`,
      );
      await exec(svc, sql`ANALYZE contact`);
      seedMs = performance.now() - seedStart;

      const message = await createEmailMessage(staff, appModeId, {
        subject: 'Spring is here',
        preheader: 'Seeds, tools and a sale',
        blocks: [
          { type: 'heading', level: 2, spans: [{ text: 'Spring is here' }] },
          {
            type: 'paragraph',
            spans: [{ text: 'Our seeds are in: ' }, { text: 'see them', link: 'https://shop.example/seeds?from=mail&x=[1]' }],
          },
          { type: 'paragraph', spans: [{ text: 'And the tools: ' }, { text: 'all of them', link: 'https://shop.example/tools#top' }] },
        ],
      });
      messageId = message.id;

      // The service on the embedded engine: the staff's send to the sending done, the engine restarted halfway.
      const serviceStart = performance.now();
      const sending = await sendEmailMessage(staff, message.id, { everyone: true });
      const timing = await untilDone(svc, sink, sending.id, people, serviceStart, async () => {
        await engine.close();
        engine = engineOn();
      });
      embedded = { engine: 'embedded', ...timing, ...(await tally(svc, sink, people, sending.id, appModeId, 0)) };

      // The floor: the same number of emails, made once, sent by nodemailer from a plain loop, EMAILS_AT_ONCE at a time, pooled as the service's transport is.
      const version = await svc.db.emailVersion.findUniqueOrThrow({ where: { id: sending.id } });
      const transport = createTransport({
        host: '127.0.0.1',
        port: sink.port,
        secure: false,
        pool: true,
        maxConnections: 5,
        maxMessages: 100,
      });
      const floorStart = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: EMAILS_AT_ONCE }, async () => {
          while (next < people) {
            const i = next++;
            await transport.sendMail({
              from: 'Bench <news@bench.test>',
              to: `floor-${i}@example.com`,
              subject: version.subject,
              html: version.html,
              text: version.text,
              messageId: `<floor-${i}@bench.test>`,
            });
          }
        }),
      );
      floorMs = performance.now() - floorStart;

      // Bare SMTP, to read the ratios by: the same email made as MIME once (as the service makes each
      // person's, email/mime.ts), handed to nodemailer as it is, only its To changed per email.
      const template = mimeTemplate(version, 'Bench <news@bench.test>')!;
      const addresses = { links: version.links.map((l) => l), open: 'https://bench.test/o' };
      const mime = personalMime(template, { to: 'TO', messageId: '<bare@bench.test>', date: new Date(), addresses });
      const bareStart = performance.now();
      next = 0;
      await Promise.all(
        Array.from({ length: EMAILS_AT_ONCE }, async () => {
          while (next < people) {
            const to = `bare-${next++}@example.com`;
            await transport.sendMail({ envelope: { from: 'news@bench.test', to: [to] }, raw: mime.replace('To: TO\r\n', `To: ${to}\r\n`) });
          }
        }),
      );
      bareMs = performance.now() - bareStart;
      transport.close();
    } finally {
      // The embedded engine and its outbox consumer go before the Temporal half, which starts its runs from the same outbox.
      await engine.close();
      await svc.close();
    }

    if (!temporalAddress) return { people, seedMs, floorMs, bareMs, runs: [embedded], temporalSkipped: TEMPORAL_SKIPPED };
    const temporal = await temporalRun({ url, secretKey, config, sink, people, appModeId, messageId, staffUser, address: temporalAddress });
    return { people, seedMs, floorMs, bareMs, runs: [embedded, temporal], temporalSkipped: null };
  } finally {
    await sink.close();
  }
}

/**
 * The same email sent again to the same people on the Temporal engine: the server's side here (the
 * Temporal client, runs started from the outbox, as `npm start` wires it with TEMPORAL_ADDRESS set),
 * the worker in a process of its own; halfway the worker is stopped and another started.
 */
async function temporalRun(o: {
  url: string;
  secretKey: string;
  config: Config;
  sink: Sink;
  people: number;
  appModeId: string;
  messageId: string;
  staffUser: StaffUser;
  address: string;
}): Promise<EmailEngineRun> {
  const namespace = process.env.TEMPORAL_NAMESPACE || 'default';
  // A task queue of this run's: no worker left from another run takes its tasks.
  const taskQueue = `crm-bench-email-${randomUUID()}`;
  const config: Config = { ...o.config, temporalAddress: o.address, temporalNamespace: namespace, temporalTaskQueue: taskQueue };
  const workerEnv = {
    DATABASE_URL: o.url,
    CRM_SECRET_KEY: o.secretKey,
    TEMPORAL_ADDRESS: o.address,
    TEMPORAL_NAMESPACE: namespace,
    TEMPORAL_TASK_QUEUE: taskQueue,
    SMTP_URL: o.sink.url,
    MAIL_FROM: config.mailFrom,
    BASE_URL: config.baseUrl,
  };
  const svc = await openServices({ config, url: o.url, secretKey: o.secretKey, listen: true });
  const engine = await createDurableEngine(svc, processes, buildActivities(svc));
  svc.outbox.consume(PROCESS_STARTS, startProcesses(engine, svc));
  let worker: ChildProcess | undefined;
  try {
    worker = await workerProcess(workerEnv);
    await o.sink.reset();
    const staff = contextOf(svc, { kind: 'staff', staffUser: o.staffUser, sessionId: 'bench' });
    const messageSentBefore = await svc.db.outboxEvent.count({ where: { appModeId: o.appModeId, topic: 'message.sent' } });
    const serviceStart = performance.now();
    const sending = await sendEmailMessage(staff, o.messageId, { everyone: true });
    const timing = await untilDone(svc, o.sink, sending.id, o.people, serviceStart, async () => {
      await stop(worker!);
      worker = undefined;
      worker = await workerProcess(workerEnv);
    });
    return { engine: 'temporal', ...timing, ...(await tally(svc, o.sink, o.people, sending.id, o.appModeId, messageSentBefore)) };
  } finally {
    if (worker) await stop(worker);
    await engine.close();
    await svc.close();
  }
}

export function printEmail(r: EmailBenchResult): void {
  const perSecond = (ms: number) => Math.round((r.people / ms) * 1000).toLocaleString('en');
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `email: one email to ${r.people.toLocaleString('en')} people (seeded in ${s(r.seedMs)}) through SMTP to a local server, the email-send process on ${r.runs.length === 2 ? 'each engine' : 'the embedded engine'}, restarted halfway`,
  );
  for (const run of r.runs) {
    const restart = `${run.engine === 'embedded' ? 'engine' : 'worker'} stopped and another started halfway, in ${s(run.restartMs)}`;
    console.log(
      `  ${run.engine.padEnd(8)} ${perSecond(run.serviceMs).padStart(7)} emails/s (${s(run.serviceMs)} from sendEmailMessage to done: claimed, made, sent, recorded, a message.sent each; ${restart}); missed ${run.missed}, sent twice ${run.twice}`,
    );
  }
  console.log(
    `  floor    ${perSecond(r.floorMs).padStart(7)} emails/s (${s(r.floorMs)}: the same emails made once, nodemailer from a plain loop, ${EMAILS_AT_ONCE} at once, pooled)`,
  );
  console.log(
    `  bare     ${perSecond(r.bareMs).padStart(7)} emails/s (${s(r.bareMs)}: the same email made as MIME once, handed to nodemailer as it is; not the floor, a line to read the ratios by)`,
  );
  for (const run of r.runs)
    console.log(
      `  ratio    ${run.engine.padEnd(8)} ${(r.floorMs / run.serviceMs).toFixed(2)} of the floor (${(r.bareMs / run.serviceMs).toFixed(2)} of bare SMTP); counted sent ${run.sent.toLocaleString('en')}, message.sent ${run.messageSent.toLocaleString('en')}`,
    );
  if (r.temporalSkipped) console.warn(`\n*** SKIPPED the Temporal half of the email benchmark: ${r.temporalSkipped}. ***\n`);
}

// Alone: a database of its own.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const people = Number(process.argv[2] ?? PEOPLE);
  process.exit(await withBenchDatabase('crm_bench_email', async ({ url }) => printEmail(await benchEmail(url, BENCH_SECRET_KEY, people))));
}
