import type { OutboxConsumer } from '../../src/db/outbox-dispatcher.js';
import { systemContext, type Ctx, type Services } from '../../src/domain/context.js';
import { RunNotFoundError } from '../engine/errors.js';
import type { AnyProcess, DurableEngine, ProcessStarter } from '../engine/types.js';
import type { Processes } from './registry.js';
import type { RunSteer } from './module.js';
import { WIRED, type WiredProcess } from './wired.js';

// Processes are started from the outbox, not by the request that asked for them: the row commits
// with the change, so a crash between the commit and the start cannot strand the work. A start is
// idempotent by run id, so a row handed on twice starts one run. Each process says which rows
// start it (its wiring's startsOn).

export const PROCESS_STARTS = 'process-starts';
/** The most runs started by one statement. */
const START_BATCH = 500;

/** What the consumer asks of the engine: starts, and for processes that are steered (steersOn) signals and cancels. */
export type ProcessSteerer<Def extends AnyProcess> = ProcessStarter<Def> & Partial<Pick<DurableEngine<Def>, 'signal' | 'cancel'>>;

export const startProcesses = (engine: ProcessSteerer<Processes>, svc: Services): OutboxConsumer =>
  startsFrom(WIRED, engine, systemContext(svc, 'process-starts'));

/**
 * The consumer that starts what the processes' rows ask for: first the one-run-per-row starts, row
 * by row in outbox order (a row of several processes' topics starts each, in the registry's
 * order), then each batch-reading process's runs, in the registry's order; then what the rows ask
 * of runs under way (steersOn): signals and cancels, a run that has ended passed over.
 */
export function startsFrom<Def extends AnyProcess>(
  processes: readonly WiredProcess[],
  engine: ProcessSteerer<Def>,
  ctx: Ctx,
): OutboxConsumer {
  // Each name and input as the engine takes them: wireProcess checked each startsOn against its definition.
  const start = (wired: WiredProcess, runId: string, input: unknown) =>
    engine.start(wired.definition.name as Def['name'], runId, input as never);
  return async (rows) => {
    for (const row of rows)
      for (const p of processes) {
        const on = p.startsOn;
        if ('runId' in on && on.topics.includes(row.topic)) await start(p, on.runId(row), on.input(row));
      }
    for (const p of processes) {
      const on = p.startsOn;
      if (!('runs' in on)) continue;
      const mine = on.topics === 'all' ? rows : rows.filter((row) => on.topics.includes(row.topic));
      if (!mine.length) continue;
      const runs = await on.runs(ctx, mine);
      // A burst of one event to many endpoints, or of many events, is one statement where the engine can.
      for (let i = 0; i < runs.length; i += START_BATCH) {
        const some = runs.slice(i, i + START_BATCH);
        if (engine.startMany) await engine.startMany(p.definition.name as Def['name'], some as never);
        else for (const { runId, input } of some) await start(p, runId, input);
      }
    }
    for (const p of processes) {
      const on = p.steersOn;
      const mine = on ? rows.filter((row) => on.topics.includes(row.topic)) : [];
      if (!mine.length) continue;
      for await (const page of pagesOf(on!.steers(ctx, mine))) for (const steer of page) await steerRun(engine, steer);
    }
  };
}

/** What a batch asks of runs under way, a page at a time. */
async function* pagesOf(steers: Promise<RunSteer[]> | AsyncIterable<RunSteer[]>): AsyncGenerator<RunSteer[]> {
  if (Symbol.asyncIterator in steers) yield* steers;
  else yield await steers;
}

async function steerRun<Def extends AnyProcess>(engine: ProcessSteerer<Def>, steer: RunSteer): Promise<void> {
  if (!engine.signal || !engine.cancel) throw new Error('this engine cannot signal or cancel runs');
  try {
    if ('cancel' in steer) await engine.cancel(steer.runId);
    else await engine.signal(steer.runId, steer.signal, steer.payload);
  } catch (err) {
    if (!(err instanceof RunNotFoundError)) throw err;
  }
}
