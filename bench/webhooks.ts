// Webhook delivery: N events written to the outbox in one transaction, each made a delivery and posted signed
// by the durable process on the embedded engine, to a local https receiver (the test trust names
// it), wired as `npm start` wires it; then a paced run, an event every few milliseconds, for the
// time one delivery takes when the service is not busy. Beside it the floor, in the same run: a
// plain loop sending the same signed posts through the same outbound client to the same receiver,
// as many at once as the engine runs side by side. Run by bench/run.ts, or alone:
// `npx tsx bench/webhooks.ts [events]`. The events are spread over 16 tenants with one endpoint each, since
// the engine lets one app-mode hold half of its slots and one endpoint four.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { readConfig } from '../src/config.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { systemContext, transaction } from '../src/domain/context.js';
import { emit } from '../src/domain/outbox.js';
import { eventIdOf } from '../src/domain/webhooks/body.js';
import { addWebhookEndpoint } from '../src/domain/webhooks/endpoints.js';
import { signatureHeader } from '../src/domain/webhooks/signature.js';
import { postOutbound, type TestTrust } from '../src/lib/outbound/index.js';
import { openServices } from '../src/services.js';
import { makeTestCertificate, startReceiver } from '../test/support/https-receiver.js';
import { EmbeddedEngine } from '../workflows/engine/embedded.js';
import { buildActivities } from '../workflows/processes/activities.js';
import { processes } from '../workflows/processes/registry.js';
import { PROCESS_STARTS, startProcesses } from '../workflows/processes/starts.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 300);
/** Runs the embedded engine claims at once, and so posts side by side: the floor sends as many at once. */
const AT_ONCE = 16;
/**
 * The tenants the events are spread over, each with one endpoint: the engine lets one app-mode hold
 * half of its slots and one endpoint four, so only as many tenants as slots can fill them all.
 */
const TENANTS = AT_ONCE;
const PACED = { events: 100, everyMs: 20 };

export interface Measured {
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}

export interface WebhookBenchResult {
  events: number;
  service: Measured;
  floor: Measured;
  paced: { service: Measured; floor: Measured };
  /** Deliveries not delivered, or delivered more than once (both should be 0). */
  missed: number;
  twice: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** Deliveries per second over the whole run and each one's time from its event to the receiver having it. */
function measure(latencies: number[], spanMs: number): Measured {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    perSecond: (latencies.length / spanMs) * 1000,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

export async function benchWebhooks(url: string, secretKey: string, events = EVENTS): Promise<WebhookBenchResult> {
  const cert = await makeTestCertificate();
  /** When the receiver had each post, by the event id in its body; how many posts each event got. */
  const arrived = new Map<string, number>();
  const posts = new Map<string, number>();
  const receiver = await startReceiver(cert, {
    handler: (req, res) => {
      const { id } = JSON.parse(req.body) as { id: string };
      if (!arrived.has(id)) arrived.set(id, performance.now());
      posts.set(id, (posts.get(id) ?? 0) + 1);
      res.writeHead(200).end();
    },
  });
  const testTrust: TestTrust = { allow: [receiver.hostPort], ca: cert.cert };
  const config = { ...readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), outboundTestTrust: testTrust };
  const svc = await openServices({ config, url, secretKey, listen: true });
  // As src/main.ts wires it: outbox rows start deliveries, the engine advances them in the background.
  const engine = new EmbeddedEngine(svc, processes, buildActivities(svc));
  svc.outbox.consume(PROCESS_STARTS, startProcesses(engine, svc));
  engine.startWorker();
  try {
    const ctx = systemContext(svc, 'bench');
    const ws = await svc.db.workspace.create({ data: { id: randomUUID(), name: 'Webhook bench' } });
    const tenants: { appId: string; appModeId: string; secret: string }[] = [];
    for (let i = 0; i < TENANTS; i++) {
      const app = await createApp(ctx, { workspaceId: ws.id, name: `Webhook bench app ${i}` });
      const appModeId = (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
      const { secret } = await addWebhookEndpoint(ctx, appModeId, { url: `${receiver.origin}/hooks`, topics: ['contact.updated'] });
      tenants.push({ appId: app.appId, appModeId, secret });
    }
    const { appId, secret } = tenants[0]!;
    const appModeIds = tenants.map((t) => t.appModeId);

    // Each event's outbox row and the time its transaction committed (performance.now(), as the receiver's).
    const written = new Map<bigint, number>();
    let lastRow = 0n;
    const writeEvents = async (count: number) => {
      await transaction(ctx, async (tx) => {
        for (let i = 0; i < count; i++)
          await emit(tx, 'contact.updated', {
            appModeId: appModeIds[(written.size + i) % TENANTS]!,
            externalId: `person-${randomUUID()}`,
            data: {},
          });
      });
      const committed = performance.now();
      for (const { id } of await svc.db.outboxEvent.findMany({
        where: { appModeId: { in: appModeIds }, topic: 'contact.updated', id: { gt: lastRow } },
        select: { id: true },
        orderBy: { id: 'asc' },
      })) {
        written.set(id, committed);
        lastRow = id;
      }
      return committed;
    };
    const waitDelivered = async (count: number, deadlineMs: number) => {
      const deadline = performance.now() + deadlineMs;
      while (arrived.size < count && performance.now() < deadline) await sleep(20);
    };

    // The burst: every event written in one transaction, then delivered; timed from its commit.
    const burstStart = await writeEvents(events);
    await waitDelivered(events, 120_000);
    const burstIds = new Map<string, number>();
    for (const [rowId, at] of written) burstIds.set(eventIdOf(svc, rowId), at);
    const burstArrivals = [...burstIds].flatMap(([id, at]) => (arrived.has(id) ? [arrived.get(id)! - at] : []));
    const burstEnd = Math.max(...[...burstIds.keys()].map((id) => arrived.get(id) ?? 0));
    const service = measure(burstArrivals, burstEnd - burstStart);

    // Paced: one event every PACED.everyMs.
    const before = written.size;
    const pacedStart = performance.now();
    for (let i = 0; i < PACED.events; i++) {
      await writeEvents(1);
      await sleep(PACED.everyMs);
    }
    await waitDelivered(events + PACED.events, 30_000);
    const pacedLatencies: number[] = [];
    let pacedEnd = pacedStart;
    for (const [rowId, at] of [...written].slice(before)) {
      const got = arrived.get(eventIdOf(svc, rowId));
      if (got !== undefined) {
        pacedLatencies.push(got - at);
        pacedEnd = Math.max(pacedEnd, got);
      }
    }
    const pacedService = measure(pacedLatencies, pacedEnd - pacedStart);
    await sleep(500); // a post sent twice would have come by now
    const ids = [...burstIds.keys()];
    const missed = ids.filter((id) => !arrived.has(id)).length + (PACED.events - pacedLatencies.length);
    const twice = [...posts.values()].filter((n) => n > 1).length;

    // The floor: the same posts, signed the same way, by a plain loop AT_ONCE at a time.
    const floorPost = async (id: string) => {
      const body = JSON.stringify({
        id,
        type: 'contact.updated',
        created_at: new Date().toISOString(),
        app_id: appId,
        data: {},
        contact: { external_id: `person-${id}`, display_name: null, email: null, language: null },
      });
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': 'crm-webhooks/1',
        'X-CRM-Delivery': `dlv_${id}`,
        'X-CRM-Signature': signatureHeader(secret, body, new Date()),
      };
      const r = await postOutbound(`${receiver.origin}/hooks`, body, headers, { testTrust });
      if (r.failure !== undefined || r.status !== 200) throw new Error(`floor post failed: ${JSON.stringify(r)}`);
    };
    const floorIds = Array.from({ length: events }, () => `evt_floor_${randomUUID()}`);
    const floorStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (next < floorIds.length) await floorPost(floorIds[next++]!);
      }),
    );
    const floor = measure(
      floorIds.map((id) => arrived.get(id)! - floorStart),
      Math.max(...floorIds.map((id) => arrived.get(id)!)) - floorStart,
    );
    // Paced floor: a post as soon as each event would be written.
    const pacedFloorIds: [string, number][] = [];
    const pacedFloorStart = performance.now();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < PACED.events; i++) {
      const id = `evt_floor_${randomUUID()}`;
      pacedFloorIds.push([id, performance.now()]);
      pending.push(floorPost(id));
      await sleep(PACED.everyMs);
    }
    await Promise.all(pending);
    const pacedFloor = measure(
      pacedFloorIds.map(([id, at]) => arrived.get(id)! - at),
      Math.max(...pacedFloorIds.map(([id]) => arrived.get(id)!)) - pacedFloorStart,
    );
    return { events, service, floor, paced: { service: pacedService, floor: pacedFloor }, missed, twice };
  } finally {
    await engine.close();
    await svc.close();
    await receiver.close();
  }
}

export function printWebhooks(r: WebhookBenchResult): void {
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const line = (m: Measured) =>
    `${Math.round(m.perSecond).toLocaleString('en').padStart(6)} deliveries/s, time to deliver p50 ${ms(m.p50)}, p99 ${ms(m.p99)}, max ${ms(m.max)}`;
  console.log(
    `webhooks: ${r.events.toLocaleString('en')} events written to the outbox in one transaction, each delivered by the webhook process (embedded engine) to a local https receiver`,
  );
  console.log(`  service  ${line(r.service)}; missed ${r.missed}, posted twice ${r.twice}`);
  console.log(`  floor    ${line(r.floor)} (the same signed posts from a plain loop, ${AT_ONCE} at once)`);
  console.log(`  ratio    ${(r.service.perSecond / r.floor.perSecond).toFixed(2)} of the floor's deliveries per second`);
  console.log(
    `  paced, an event every ${PACED.everyMs} ms (${PACED.events}): service p50 ${ms(r.paced.service.p50)}, p99 ${ms(r.paced.service.p99)}; floor p50 ${ms(r.paced.floor.p50)}, p99 ${ms(r.paced.floor.p99)}`,
  );
}

// Alone: a database of its own.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const events = Number(process.argv[2] ?? EVENTS);
  process.exit(
    await withBenchDatabase('crm_bench_webhooks', async ({ url }) => printWebhooks(await benchWebhooks(url, BENCH_SECRET_KEY, events))),
  );
}
