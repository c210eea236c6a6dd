import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestOf } from './support/messenger.js';
import { seedParts } from './support/parts.js';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';

// A person whose conversation holds 3,000 messages of 10,000 characters (30 MB of words) reads it
// and has it exported, while the server's event loop is watched: the server runs in this process
// (startTestServer), so the histogram sees its loop. No request may hold the loop 50 ms or more:
// every answer that grows with what a person wrote is paged (a conversation read) or written as it
// is read (the export), never built whole. The client is another process, and the answers are
// parsed only after they are measured, so no client work counts against the server's loop.

const PARTS = 3_000;
const CHARS = 10_000;
const MAX_DELAY_MS = 50;
/** Runs of each read at most (RUNS in the environment to try more): it stops at the first within the bound. */
const RUNS = Number(process.env.RUNS ?? 10);

let t: TestServer;
let app: SeededApp;
let conversationId: string;
const sub = 'writer-of-many';
beforeAll(async () => {
  ({ t, app } = await startWithApp());
  const started = await guestOf(t, app.live, sub).start({ text: 'The first of many' });
  expect(started.status).toBe(201);
  conversationId = started.json.id;
  await seedParts(t, conversationId, PARTS - 1, { chars: CHARS });
}, 120_000);
afterAll(() => t?.close());

// The client: another process, which GETs the address with the headers and writes the body to a
// file as it comes; its status on stdout.
const CLIENT = `
const [url, headers, file] = process.argv.slice(1);
const res = await fetch(url, { headers: JSON.parse(headers) });
const { createWriteStream } = await import('node:fs');
const { Readable } = await import('node:stream');
const { pipeline } = await import('node:stream/promises');
await pipeline(Readable.fromWeb(res.body), createWriteStream(file));
process.stdout.write(String(res.status));
`;

/** A GET by a client in another process, and the longest the server's event loop (this process's) was held meanwhile. */
async function measured(path: string, headers: Record<string, string>) {
  const file = join(tmpdir(), `event-loop-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const client = spawn(process.execPath, ['--input-type=module', '-e', CLIENT, t.url + path, JSON.stringify(headers), file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  delay.enable();
  let status = '';
  client.stdout.on('data', (d: Buffer) => (status += d.toString()));
  const [code] = await once(client, 'exit');
  delay.disable();
  expect(code).toBe(0);
  const body = readFileSync(file);
  rmSync(file);
  return { status: Number(status), body, maxMs: delay.max / 1e6 };
}

/**
 * The same GET a few times, each measured. The machine the tests run on is shared (2 cores, often
 * a load of 8, another test file beside this one): a process waiting for a core sees its loop
 * "held" for tens or hundreds of milliseconds with nothing to do (an idle loop measures up to 26 ms
 * there, and a single run of a paged read up to 238 ms beside a busy file). Waiting for a core is
 * one run's bad luck; the work a request does holds the loop in every run (a 30 MB answer built at
 * once held it 137 to 499 ms in each of 18 runs). So the bound is on the best run's worst delay:
 * the request's own work never needs 50 ms of the loop at once. The runs stop at the first within
 * the bound (five were once all held 60 ms or more beside a busy file; work that needs the loop
 * longer holds it in every one of the `count`).
 */
async function runs(count: number, path: string, headers: Record<string, string>) {
  const done: Awaited<ReturnType<typeof measured>>[] = [];
  for (let i = 0; i < count && !done.some((r) => r.maxMs < MAX_DELAY_MS); i++) done.push(await measured(path, headers));
  const worst = done.map((r) => Math.round(r.maxMs));
  return { done, worst, best: Math.min(...done.map((r) => r.maxMs)) };
}

describe('the event loop while a person with 30 MB of messages is read', () => {
  it('is not held over 50 ms by reading their conversation, a page at a time', async () => {
    const headers = await guestOf(t, app.live, sub).headers();
    const newest = await runs(RUNS, `/guest/v1/conversations/${conversationId}`, headers);
    const older = await runs(RUNS, `/guest/v1/conversations/${conversationId}?before=${PARTS - 199}`, headers);
    console.log(
      `conversation read: ${newest.done[0]!.body.length} bytes; loop held at most ${newest.worst.join(', ')} ms (newest page), ${older.worst.join(', ')} ms (the page before)`,
    );
    for (const r of [...newest.done, ...older.done]) expect(r.status).toBe(200);
    expect(newest.best).toBeLessThan(MAX_DELAY_MS);
    expect(older.best).toBeLessThan(MAX_DELAY_MS);
    const page = JSON.parse(newest.done[0]!.body.toString());
    expect(page.parts).toHaveLength(200);
    expect(page.parts_before).toBe(PARTS - 199);
    expect(page.parts[199].blocks[0].spans[0].text).toHaveLength(CHARS);
    expect(JSON.parse(older.done[0]!.body.toString()).parts[0].seq).toBe(PARTS - 399);
  });

  it('is not held over 50 ms by exporting them, and the export still carries every part', async () => {
    const exported = await runs(RUNS, `/server/v1/contacts/${sub}/export`, { Authorization: `Bearer ${app.live.server_key}` });
    console.log(`export: ${exported.done[0]!.body.length} bytes; loop held at most ${exported.worst.join(', ')} ms`);
    for (const r of exported.done) expect(r.status).toBe(200);
    expect(exported.best).toBeLessThan(MAX_DELAY_MS);
    const kept = JSON.parse(exported.done[0]!.body.toString());
    expect(kept.conversations).toHaveLength(1);
    expect(kept.conversations[0].parts.map((p: { seq: number }) => p.seq)).toEqual(Array.from({ length: PARTS }, (_, i) => i + 1));
    expect(kept.conversations[0].parts[PARTS - 1].text).toHaveLength(CHARS);
  });
});
