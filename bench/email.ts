// Email fan-out: N people with an address (seeded in bulk by SQL), one email sent to everyone on the
// staff side and carried out by the email-send process on the embedded engine (wired as `npm start`
// wires it) through SMTP to a local SMTP server: every person claimed, their email made (tokens for
// each link, the open, the unsubscribe; the headers), handed over, recorded, a message.sent each.
// The SMTP server runs in a process of its own, as a mail server does. Halfway, the engine is stopped and another started on the same database, as a restart does: every
// person must still get the email once. Beside it the floor, in the same run: the same number of
// pre-rendered emails sent by nodemailer (pooled as the service's transport is) from a plain loop, as
// many at once as a step hands over, to the same server. Run by bench/run.ts, or alone:
// `npx tsx bench/email.ts [people]` (BENCH_EMAIL_PEOPLE for npm run bench; 100,000 by default).
import { randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createTransport } from 'nodemailer';
import { readConfig } from '../src/config.js';
import { exec, sql } from '../src/db/sql.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { contextOf, systemContext } from '../src/domain/context.js';
import { createEmailMessage } from '../src/domain/email/messages.js';
import { EMAILS_AT_ONCE } from '../src/domain/email/schedule.js';
import { sendEmailMessage } from '../src/domain/email/sending.js';
import type { StaffUser } from '../src/generated/prisma/client.js';
import { openServices } from '../src/services.js';
import { EmbeddedEngine } from '../workflows/engine/embedded.js';
import { buildActivities } from '../workflows/processes/activities.js';
import { processes } from '../workflows/processes/registry.js';
import { PROCESS_STARTS, startProcesses } from '../workflows/processes/starts.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';

const PEOPLE = Number(process.env.BENCH_EMAIL_PEOPLE ?? 100_000);

export interface EmailBenchResult {
  people: number;
  seedMs: number;
  /** From the staff's sendEmailMessage to the sending done, a restart halfway included. */
  serviceMs: number;
  floorMs: number;
  /** People the SMTP server never got the email for, and got it more than once for (both should be 0). */
  missed: number;
  twice: number;
  sent: number;
  messageSent: number;
}

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
    counts: async () => new Map(await answer<[string, number][]>('counts', 'counts')),
    close: async () => {
      child.disconnect();
      await once(child, 'exit');
    },
  };
}

export async function benchEmail(url: string, secretKey: string, people = PEOPLE): Promise<EmailBenchResult> {
  const sink = await smtpSink();
  const config = { ...readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), smtpUrl: sink.url, mailFrom: 'Bench <news@bench.test>' };
  const svc = await openServices({ config, url, secretKey, listen: true });
  const engineOn = () => {
    const engine = new EmbeddedEngine(svc, processes, buildActivities(svc));
    engine.startWorker();
    return engine;
  };
  let engine = engineOn();
  svc.outbox.consume(PROCESS_STARTS, startProcesses(engine, svc));
  try {
    const ctx = systemContext(svc, 'bench');
    const ws = await svc.db.workspace.create({ data: { id: randomUUID(), name: 'Email bench' } });
    const app = await createApp(ctx, { workspaceId: ws.id, name: 'Email bench app' });
    const appModeId = (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
    const staff = contextOf(svc, { kind: 'staff', staffUser: { id: randomUUID(), name: 'Bench' } as StaffUser, sessionId: 'bench' });

    const seedStart = performance.now();
    await exec(
      svc,
      sql`INSERT INTO contact (id, app_mode_id, external_id, email)
          SELECT ${appModeId} || '-' || lpad(i::text, 7, '0'), ${appModeId}, 'person-' || i, 'person-' || i || '@example.com'
          FROM generate_series(1, ${people}) i`,
    );
    await exec(svc, sql`ANALYZE contact`);
    const seedMs = performance.now() - seedStart;

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

    // The service: the staff's send to the sending done, the engine restarted halfway.
    const serviceStart = performance.now();
    const sending = await sendEmailMessage(staff, message.id, { everyone: true });
    let restarted = false;
    for (;;) {
      const now = await svc.db.emailVersion.findUniqueOrThrow({ where: { id: sending.id }, select: { state: true } });
      if (now.state !== 'sending') break;
      if (!restarted && (await sink.size()) >= people / 2) {
        restarted = true;
        await engine.close();
        engine = engineOn();
      }
      await sleep(50);
    }
    const serviceMs = performance.now() - serviceStart;
    const sent = await svc.db.emailSend.count({ where: { versionId: sending.id, state: 'sent' } });
    const messageSent = await svc.db.outboxEvent.count({ where: { appModeId, topic: 'message.sent' } });
    const counts = await sink.counts();
    let missed = 0;
    let twice = 0;
    for (let i = 1; i <= people; i++) {
      const n = counts.get(`person-${i}@example.com`) ?? 0;
      if (n === 0) missed++;
      if (n > 1) twice++;
    }

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
    const floorMs = performance.now() - floorStart;
    transport.close();
    return { people, seedMs, serviceMs, floorMs, missed, twice, sent, messageSent };
  } finally {
    await engine.close();
    await svc.close();
    await sink.close();
  }
}

export function printEmail(r: EmailBenchResult): void {
  const perSecond = (ms: number) => Math.round((r.people / ms) * 1000).toLocaleString('en');
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `email: one email to ${r.people.toLocaleString('en')} people (seeded in ${s(r.seedMs)}) through SMTP to a local server, the email-send process on the embedded engine, restarted halfway`,
  );
  console.log(
    `  service  ${perSecond(r.serviceMs).padStart(7)} emails/s (${s(r.serviceMs)} from sendEmailMessage to done: claimed, made, sent, recorded, a message.sent each); missed ${r.missed}, sent twice ${r.twice}`,
  );
  console.log(
    `  floor    ${perSecond(r.floorMs).padStart(7)} emails/s (${s(r.floorMs)}: the same emails made once, nodemailer from a plain loop, ${EMAILS_AT_ONCE} at once, pooled)`,
  );
  console.log(
    `  ratio    ${(r.floorMs / r.serviceMs).toFixed(2)} of the floor; counted sent ${r.sent.toLocaleString('en')}, message.sent ${r.messageSent.toLocaleString('en')}`,
  );
}

// Alone: a database of its own.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const people = Number(process.argv[2] ?? PEOPLE);
  process.exit(await withBenchDatabase('crm_bench_email', async ({ url }) => printEmail(await benchEmail(url, BENCH_SECRET_KEY, people))));
}
