// Fairness between tenants, the issue's flood: tenant A adds 16 webhook endpoints at a receiver that
// takes each post and never answers (a post holds its slot for the 10 s outbound timeout), then
// makes 10 Identify calls (160 slow deliveries). Beside it tenant B makes an Identify call every
// 200 ms (each a delivery to B's quick endpoint) and snoozes a conversation for 5 s. Printed: B's
// deliveries p99 (from the Identify's answer to the receiver having the post) and how late B's
// snooze woke, beside the aims (2 s and 1 s), over a few runs, each on a fresh database and a
// server process of its own (dist/src/main.js) with its background worker. Run by bench/run.ts, or
// alone: `npx tsx bench/fairness.ts`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { readConfig } from '../src/config.js';
import { applyMigrations, withDatabase } from '../src/db/migrations.js';
import { createApp, type CreatedApp } from '../src/domain/apps/create-app.js';
import { systemContext } from '../src/domain/context.js';
import { createWorkspace } from '../src/domain/staff/workspaces.js';
import { openServices } from '../src/services.js';
import { call, userToken } from '../test/support/http.js';
import { makeTestCertificate, startReceiver } from '../test/support/https-receiver.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';
import { freePort, serverProcess, stop } from './processes.js';

const RUNS = Number(process.env.BENCH_FAIRNESS_RUNS ?? 3);
/** Tenants flooding at once (BENCH_FAIRNESS_FLOODERS): the issue's scenario has one. */
const FLOODERS = Number(process.env.BENCH_FAIRNESS_FLOODERS ?? 1);
const A_ENDPOINTS = 16;
const A_IDENTIFIES = 10;
const B_DELIVERIES = 20;
const B_EVERY_MS = 200;
const SNOOZE_MS = 5_000;
export const AIMS = { deliveryP99Ms: 2_000, snoozeLatenessMs: 1_000 };

export interface FairnessRun {
  /** B's deliveries, ms from the Identify's answer to the receiver having the post (Infinity: never came). */
  deliveryP99Ms: number;
  deliveryMaxMs: number;
  /** ms after its time that B's snooze woke. */
  snoozeLatenessMs: number;
  /** A's posts held unanswered at once when B had made its calls (the slots A holds). */
  aHeld: number;
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(0.99 * xs.length) - 1]!;

async function oneRun(adminUrl: string, secretKey: string, run: number): Promise<FairnessRun> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE crm_fairness_${run}`);
  await admin.end();
  const url = withDatabase(adminUrl, `crm_fairness_${run}`);
  await applyMigrations(url);

  const dir = await mkdtemp(path.join(tmpdir(), 'crm-bench-fairness-'));
  const cert = await makeTestCertificate();
  await writeFile(path.join(dir, 'ca.pem'), cert.cert);
  const held: ServerResponse[] = [];
  const arrivedB = new Map<string, number>();
  const receiver = await startReceiver(cert, {
    handler: (req, res) => {
      if (req.path.startsWith('/slow')) return void held.push(res);
      arrivedB.set((JSON.parse(req.body) as { contact: { external_id: string } }).contact.external_id, Date.now());
      res.writeHead(200).end();
    },
  });
  const svc = await openServices({ config: readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), url, secretKey });
  const port = await freePort();
  const server = await serverProcess(url, secretKey, port, {
    OUTBOUND_TEST_TRUST: `allow=${receiver.hostPort};ca=${path.join(dir, 'ca.pem')}`,
    LOG_LEVEL: 'silent',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    const gql = async (query: string, variables: Record<string, unknown>, token?: string) => {
      const r = await call(base, 'POST', '/graphql', {
        json: { query, variables },
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
      if (r.json.errors) throw new Error(JSON.stringify(r.json.errors));
      return r.json.data;
    };
    const tenant = async (name: string) => {
      const ctx = systemContext(svc, 'bench');
      const ownerEmail = `${name}-${run}@example.com`;
      const ownerPassword = 'correct horse battery staple';
      const { workspaceId } = await createWorkspace(ctx, { name, ownerEmail, ownerPassword });
      const app: CreatedApp = await createApp(ctx, { workspaceId, name });
      const owner = (
        await gql('mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }', { e: ownerEmail, p: ownerPassword })
      ).signIn.token as string;
      const mode = (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
      const endpoint = (u: string) =>
        gql(
          'mutation($m: ID!, $u: String!) { addWebhookEndpoint(appModeId: $m, url: $u, topics: ["contact.created"]) { endpoint { id } } }',
          { m: mode, u },
          owner,
        );
      const identify = async (id: string) => {
        const r = await call(base, 'PUT', `/server/v1/contacts/${id}`, {
          headers: { Authorization: `Bearer ${app.live.server_key}` },
          json: {},
        });
        if (r.status !== 200) throw new Error(`identify answered ${r.status}`);
      };
      return { app, owner, endpoint, identify };
    };
    const flooders = [];
    for (let f = 0; f < FLOODERS; f++) flooders.push(await tenant(f === 0 ? 'A' : `A${f + 1}`));
    const b = await tenant('B');
    for (const a of flooders) for (let i = 0; i < A_ENDPOINTS; i++) await a.endpoint(`${receiver.origin}/slow/${i}`);
    await b.endpoint(`${receiver.origin}/b`);
    const guest = {
      'X-CRM-App-Key': b.app.live.app_key,
      Authorization: `Bearer ${await userToken(b.app.live.identity_secret, { sub: 'b-guest' })}`,
    };
    const conversationId = (await call(base, 'POST', '/guest/v1/conversations', { headers: guest, json: { text: 'Hello' } })).json
      .id as string;

    for (const a of flooders) for (let i = 0; i < A_IDENTIFIES; i++) await a.identify(`a-${i}`);
    const deadline = Date.now() + 10_000;
    while (held.length < 4 && Date.now() < deadline) await sleep(20);

    const until = new Date(Date.now() + SNOOZE_MS);
    await gql(
      'mutation($id: ID!, $u: DateTime!) { snoozeConversation(id: $id, until: $u) { id } }',
      { id: conversationId, u: until.toISOString() },
      b.owner,
    );
    const sentAt = new Map<string, number>();
    for (let i = 0; i < B_DELIVERIES; i++) {
      await b.identify(`b-${i}`);
      sentAt.set(`b-${i}`, Date.now());
      await sleep(B_EVERY_MS);
    }
    const aHeld = held.filter((res) => !res.socket?.destroyed).length;
    const woke = () => svc.db.conversationPart.findFirst({ where: { conversationId, authorKind: 'system' }, orderBy: { seq: 'desc' } });
    const end = Date.now() + 15_000;
    while ((arrivedB.size < B_DELIVERIES || !(await woke())) && Date.now() < end) await sleep(20);
    const waits = [...sentAt].map(([id, at]) => (arrivedB.get(id) ?? Infinity) - at);
    return {
      deliveryP99Ms: p99(waits),
      deliveryMaxMs: Math.max(...waits),
      snoozeLatenessMs: ((await woke())?.createdAt.getTime() ?? Infinity) - until.getTime(),
      aHeld,
    };
  } finally {
    await stop(server);
    for (const res of held) res.destroy();
    await receiver.close();
    await svc.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchFairness(adminUrl: string, secretKey: string, runs = RUNS): Promise<FairnessRun[]> {
  const out: FairnessRun[] = [];
  for (let run = 0; run < runs; run++) out.push(await oneRun(adminUrl, secretKey, run));
  return out;
}

export function printFairness(runs: FairnessRun[]): void {
  const spread = (xs: number[]) => {
    const sorted = [...xs].sort((x, y) => x - y);
    const ms = (n: number) => `${Math.round(n).toLocaleString('en')} ms`;
    return `${ms(sorted[Math.floor(sorted.length / 2)]!)} (${ms(sorted[0]!)} to ${ms(sorted[sorted.length - 1]!)})`;
  };
  console.log(
    `fairness: ${FLOODERS === 1 ? "tenant A's flood" : `${FLOODERS} tenants flooding, each`} (${A_ENDPOINTS} endpoints that never answer, ${A_IDENTIFIES} Identify calls: ${A_ENDPOINTS * A_IDENTIFIES} posts of 10 s) beside tenant B, ${runs.length} runs, median (min to max)`,
  );
  console.log(
    `  B deliveries p99      ${spread(runs.map((r) => r.deliveryP99Ms)).padEnd(28)} aim: within ${AIMS.deliveryP99Ms.toLocaleString('en')} ms`,
  );
  console.log(
    `  B snooze lateness     ${spread(runs.map((r) => r.snoozeLatenessMs)).padEnd(28)} aim: within ${AIMS.snoozeLatenessMs.toLocaleString('en')} ms`,
  );
  console.log(`  A's posts held at once ${runs.map((r) => r.aHeld).join(', ')} (the engine's share for one app-mode)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  process.exit(
    await withBenchDatabase('crm_bench_fairness', async ({ adminUrl }) => printFairness(await benchFairness(adminUrl, BENCH_SECRET_KEY))),
  );
