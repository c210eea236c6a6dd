// Push fan-out: N people with one iPhone each (seeded in bulk by SQL), one push sent to everyone on
// the staff side and carried out by the push-send process on the embedded engine (wired as `npm
// start` wires it) through the APNs stand-in over HTTP/2: every device claimed, sent, recorded,
// each person given a notice and a message.sent. Beside it the floor, in the same run: the same
// number of HTTP/2 posts of the same payload with the same provider token, from a plain loop as
// many at once as a send step has in flight, to the same stand-in. Run by bench/run.ts, or alone:
// `npx tsx bench/push.ts [devices]` (BENCH_PUSH_DEVICES for npm run bench). 20,000 devices by
// default, to keep npm run bench within a few minutes: 100,000 (`npx tsx bench/push.ts 100000`)
// takes about four minutes on the project's machines, the floor alone over one.
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { readConfig } from '../src/config.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { contextOf, systemContext } from '../src/domain/context.js';
import { setApnsCredentials } from '../src/domain/push/credentials.js';
import { apnsPayload } from '../src/domain/push/payload.js';
import { providerTokenStore } from '../src/domain/push/provider-tokens.js';
import { PUSHES_AT_ONCE } from '../src/domain/push/schedule.js';
import { sendPush } from '../src/domain/push/send.js';
import type { StaffUser } from '../src/generated/prisma/client.js';
import { ApnsTokens, sendApns } from '../src/lib/push/apns.js';
import { Http2Client } from '../src/lib/push/h2.js';
import { openServices } from '../src/services.js';
import { makeTestCertificate } from '../test/support/https-receiver.js';
import { makeApnsKey, seedIphones, startApnsStandin } from '../test/support/push-standins.js';
import { EmbeddedEngine } from '../workflows/engine/embedded.js';
import { buildActivities } from '../workflows/processes/activities.js';
import { processes } from '../workflows/processes/registry.js';
import { PROCESS_STARTS, startProcesses } from '../workflows/processes/starts.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';
import { exec, sql } from '../src/db/sql.js';

const DEVICES = Number(process.env.BENCH_PUSH_DEVICES ?? 100_000);
const BUNDLE = 'com.example.bench';
/** Rows per seeding statement. */
const SEED_CHUNK = 10_000;

export interface PushBenchResult {
  devices: number;
  seedMs: number;
  /** From the staff's sendPush to the send done: every device sent and recorded. */
  serviceMs: number;
  floorMs: number;
  /** Devices the stand-in never got, and got more than once (both should be 0). */
  missed: number;
  twice: number;
  counts: { sent: number; people: number; notices: number; messageSent: number };
}

export async function benchPush(url: string, secretKey: string, devices = DEVICES): Promise<PushBenchResult> {
  const cert = await makeTestCertificate();
  const key = makeApnsKey();
  const apns = await startApnsStandin(cert, { key, bundleId: BUNDLE, keep: false });
  const testTrust = { allow: [apns.hostPort], ca: cert.cert };
  const base = readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv);
  const config = { ...base, outboundTestTrust: testTrust, push: { ...base.push, apnsUrl: apns.origin, apnsSandboxUrl: apns.origin } };
  const svc = await openServices({ config, url, secretKey, listen: true });
  const engine = new EmbeddedEngine(svc, processes, buildActivities(svc));
  svc.outbox.consume(PROCESS_STARTS, startProcesses(engine, svc));
  engine.startWorker();
  try {
    const ctx = systemContext(svc, 'bench');
    const ws = await svc.db.workspace.create({ data: { id: randomUUID(), name: 'Push bench' } });
    const app = await createApp(ctx, { workspaceId: ws.id, name: 'Push bench app' });
    const appModeId = (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
    const staff = contextOf(svc, { kind: 'staff', staffUser: { id: randomUUID() } as StaffUser, sessionId: 'bench' });
    await setApnsCredentials(staff, appModeId, { keyP8: key.p8, keyId: key.keyId, teamId: key.teamId, bundleId: BUNDLE, production: true });

    // The audience, in bulk: a contact and an iPhone each, tokens sealed and hashed as registration keeps them.
    const seedStart = performance.now();
    const tokens: string[] = [];
    for (let from = 0; from < devices; from += SEED_CHUNK) {
      const n = Math.min(SEED_CHUNK, devices - from);
      tokens.push(...(await seedIphones(svc, appModeId, n)));
    }
    await exec(svc, sql`ANALYZE contact`);
    await exec(svc, sql`ANALYZE device`);
    const seedMs = performance.now() - seedStart;

    // The service: the staff's send, to the send done.
    const serviceStart = performance.now();
    const send = await sendPush(staff, appModeId, {
      title: 'Your order shipped',
      body: 'It arrives on Friday',
      link: '/orders/12',
      audience: { everyone: true },
    });
    for (;;) {
      const now = await svc.db.pushSend.findUniqueOrThrow({ where: { id: send.id }, select: { state: true } });
      if (now.state !== 'sending') break;
      await sleep(50);
    }
    const serviceMs = performance.now() - serviceStart;
    const done = await svc.db.pushSend.findUniqueOrThrow({ where: { id: send.id } });
    const notices = await svc.db.notice.count({ where: { appModeId, sendKey: send.id } });
    const messageSent = await svc.db.outboxEvent.count({ where: { appModeId, topic: 'message.sent' } });
    const missed = tokens.filter((t) => !apns.counts.has(t)).length;
    const twice = tokens.filter((t) => (apns.counts.get(t) ?? 0) > 1).length;

    // The floor: the same number of posts of the same payload, PUSHES_AT_ONCE at a time, over one HTTP/2 connection with one provider token.
    const client = new Http2Client({ testTrust });
    // The service's provider token, from where every process reads it: a new one now would be refused (renewed within 20 minutes).
    const providerTokens = new ApnsTokens(providerTokenStore(svc));
    const creds = { privateKey: key.p8, keyId: key.keyId, teamId: key.teamId, bundleId: BUNDLE, production: true };
    const payload = apnsPayload({ sendId: send.id, title: send.title, body: send.body, link: send.link });
    const floorTokens = Array.from({ length: devices }, () => randomBytes(32).toString('hex'));
    const floorStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: PUSHES_AT_ONCE }, async () => {
        while (next < floorTokens.length) {
          const o = await sendApns(client, providerTokens, creds, apns.origin, { deviceToken: floorTokens[next++]!, payload }, new Date());
          if (o.kind !== 'sent') throw new Error(`floor post failed: ${JSON.stringify(o)}`);
        }
      }),
    );
    const floorMs = performance.now() - floorStart;
    await client.close();
    return { devices, seedMs, serviceMs, floorMs, missed, twice, counts: { sent: done.sent, people: done.people, notices, messageSent } };
  } finally {
    await engine.close();
    await svc.close();
    await apns.close();
  }
}

export function printPush(r: PushBenchResult): void {
  const perSecond = (ms: number) => Math.round((r.devices / ms) * 1000).toLocaleString('en');
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `push: one push to ${r.devices.toLocaleString('en')} devices (one iPhone each, seeded in ${s(r.seedMs)}) through the APNs stand-in over HTTP/2, the push-send process on the embedded engine`,
  );
  console.log(
    `  service  ${perSecond(r.serviceMs).padStart(7)} sends/s (${s(r.serviceMs)} from sendPush to done: claimed, sent, recorded, a notice and a message.sent each); missed ${r.missed}, sent twice ${r.twice}`,
  );
  console.log(
    `  floor    ${perSecond(r.floorMs).padStart(7)} posts/s (${s(r.floorMs)}: the same HTTP/2 posts from a plain loop, ${PUSHES_AT_ONCE} at once, one connection, one provider token)`,
  );
  console.log(
    `  ratio    ${(r.floorMs / r.serviceMs).toFixed(2)} of the floor; counted sent ${r.counts.sent.toLocaleString('en')}, people ${r.counts.people.toLocaleString('en')}, notices ${r.counts.notices.toLocaleString('en')}, message.sent ${r.counts.messageSent.toLocaleString('en')}`,
  );
}

// Alone: a database of its own.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const devices = Number(process.argv[2] ?? DEVICES);
  process.exit(await withBenchDatabase('crm_bench_push', async ({ url }) => printPush(await benchPush(url, BENCH_SECRET_KEY, devices))));
}
