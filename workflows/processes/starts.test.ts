import { describe, expect, it } from 'vitest';
import type { OutboxRow } from '../../src/db/outbox-dispatcher.js';
import type { Ctx } from '../../src/domain/context.js';
import { ERASE_REQUESTED } from '../../src/domain/contacts/erasure.js';
import { SNOOZED } from '../../src/domain/inbox/snooze.js';
import { PUSH_REQUESTED } from '../../src/domain/push/send.js';
import { RunNotFoundError } from '../engine/errors.js';
import type { ProcessStarter } from '../engine/types.js';
import { eraseActivities } from './erase/activities.js';
import { eraseProcess } from './erase/decide.js';
import { processModule, wireProcess, type StartsOn } from './module.js';
import { pushSendActivities } from './push-send/activities.js';
import { PROCESS_MODULES } from './registry.js';
import { startsFrom } from './starts.js';
import { WIRED, type WiredProcess } from './wired.js';

// Which rows start which runs, over a starter that records what it is asked: the order and the
// routing of the loop, and each process's own startsOn. The webhook's start reads the database
// (its endpoints); the webhook tests cover it over HTTP.

let next = 0n;
const row = (topic: string, data: Record<string, unknown> = {}): OutboxRow => ({
  id: ++next,
  txId: 1n,
  appModeId: 'm1',
  topic,
  externalId: null,
  data,
  createdAt: new Date(0),
});

const recorder = () => {
  const started: [process: string, runId: string, input: unknown][] = [];
  const engine: ProcessStarter = { start: async (process, runId, input) => void started.push([String(process), runId, input]) };
  return { started, engine };
};
const noCtx = undefined as unknown as Ctx;

const wired = (name: string, startsOn: StartsOn<unknown>): WiredProcess => ({
  definition: { ...eraseProcess, name } as WiredProcess['definition'],
  activities: () => ({}),
  startsOn,
});
const perRow = (name: string, topics: string[]) =>
  wired(name, { topics, runId: (r) => `${name}-${r.id}`, input: (r) => ({ topic: r.topic }) });

describe('starting processes from the outbox', () => {
  it('starts one run per row of a process’s topics, rows in order, a row of two processes’ topics starting each in the registry’s order', async () => {
    const { started, engine } = recorder();
    const [a, b, c] = [row('a'), row('ab'), row('other')];
    await startsFrom([perRow('one', ['a', 'ab']), perRow('two', ['ab'])], engine, noCtx)([a, b, c]);
    expect(started).toEqual([
      ['one', `one-${a.id}`, { topic: 'a' }],
      ['one', `one-${b.id}`, { topic: 'ab' }],
      ['two', `two-${b.id}`, { topic: 'ab' }],
    ]);
  });

  it('then asks each batch-reading process for its runs, once per batch, with the rows of its topics (or all)', async () => {
    const { started, engine } = recorder();
    const asked: [string, string[]][] = [];
    const batch = (name: string, topics: string[] | 'all') =>
      wired(name, {
        topics,
        runs: async (_ctx, rows) => (
          asked.push([name, rows.map((r) => r.topic)]),
          rows.map((r) => ({ runId: `${name}-${r.id}`, input: null }))
        ),
      });
    const rows = [row('x'), row('y'), row('z')];
    await startsFrom([batch('all', 'all'), perRow('each', ['y']), batch('some', ['z']), batch('none', ['q'])], engine, noCtx)(rows);
    expect(asked).toEqual([
      ['all', ['x', 'y', 'z']],
      ['some', ['z']],
    ]);
    expect(started.map(([process, runId]) => `${process}:${runId}`)).toEqual([
      `each:each-${rows[1]!.id}`,
      ...rows.map((r) => `all:all-${r.id}`),
      `some:some-${rows[2]!.id}`,
    ]);
  });

  it('sends what steered runs are asked a page at a time, each page before the next is read, and passes over runs that have ended', async () => {
    const done: string[] = [];
    const engine = {
      start: async () => undefined,
      signal: async (runId: string, name: string) => {
        if (runId === 'gone') throw new RunNotFoundError(runId);
        done.push(`${name}:${runId}`);
      },
      cancel: async (runId: string) => void done.push(`cancel:${runId}`),
    };
    const steered: WiredProcess = {
      ...perRow('steered', []),
      steersOn: {
        topics: ['move'],
        steers: async function* (_ctx, rows) {
          for (const r of rows) {
            done.push(`read:${r.id}`);
            yield [
              { runId: `a${r.id}`, signal: 'move' },
              { runId: 'gone', signal: 'move' },
              { runId: `b${r.id}`, cancel: true },
            ];
          }
        },
      },
    };
    const [one, two] = [row('move'), row('move')];
    await startsFrom([steered], engine, noCtx)([one, row('other'), two]);
    expect(done).toEqual([
      `read:${one.id}`,
      `move:a${one.id}`,
      `cancel:b${one.id}`,
      `read:${two.id}`,
      `move:a${two.id}`,
      `cancel:b${two.id}`,
    ]);
  });

  it('starts each registered process from its own rows: erase by request, a snooze’s wake by its run, a push by its send', async () => {
    const { started, engine } = recorder();
    const oneRunPerRow = WIRED.filter((p) => 'runId' in p.startsOn);
    await startsFrom(
      oneRunPerRow,
      engine,
      noCtx,
    )([
      row(ERASE_REQUESTED, { request_id: 'r1' }),
      row(SNOOZED, { run_id: 'wake-1', conversation_id: 'c1', until: '2026-11-22T09:00:00.000Z' }),
      row(PUSH_REQUESTED, { send_id: 's1' }),
      row('contact.created', { external_id: 'x' }),
    ]);
    expect(started).toEqual([
      ['erase', 'r1', { requestId: 'r1', appModeId: 'm1' }],
      ['conversation-wake', 'wake-1', { appModeId: 'm1', conversationId: 'c1', until: '2026-11-22T09:00:00.000Z' }],
      ['push-send', 's1', { sendId: 's1', appModeId: 'm1' }],
    ]);
  });

  it('has every registered process wired, each once, in the registry’s order', () => {
    expect(WIRED.map((p) => p.definition)).toEqual(PROCESS_MODULES.map((m) => m.definition));
    expect(new Set(WIRED.map((p) => p.definition.name)).size).toBe(WIRED.length);
  });
});

// What the compiler holds a wiring to (tsc checks these; nothing calls them).
function wiringTyping() {
  const startsOn = { topics: [ERASE_REQUESTED], runId: () => 'r', input: () => ({ requestId: 'r' }) };
  wireProcess(eraseProcess, { activities: eraseActivities, startsOn });
  wireProcess(eraseProcess, {
    activities: eraseActivities,
    // @ts-expect-error a start input that is not the process's
    startsOn: { topics: [ERASE_REQUESTED], runId: () => 'r', input: () => ({ requestId: 1 }) },
  });
  // @ts-expect-error activities that are not the ones the process calls
  wireProcess(eraseProcess, { activities: pushSendActivities, startsOn });
  wireProcess(eraseProcess, {
    activities: eraseActivities,
    // @ts-expect-error a batch start whose runs carry another input
    startsOn: { topics: 'all', runs: async () => [{ runId: 'r', input: { sendId: 's' } }] },
  });
  // @ts-expect-error a registry line pairing a definition with another process's wiring
  processModule(eraseProcess, () => import('./push-send/wiring.js'));
}
void wiringTyping;
