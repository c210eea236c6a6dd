import type { OutboxConsumer } from '../../src/db/outbox-dispatcher.js';
import { systemContext, type Ctx, type Services } from '../../src/domain/context.js';
import type { AnyProcess, ProcessStarter } from '../engine/types.js';
import type { Processes } from './registry.js';
import { WIRED, type WiredProcess } from './wired.js';

// Processes are started from the outbox, not by the request that asked for them: the row commits
// with the change, so a crash between the commit and the start cannot strand the work. A start is
// idempotent by run id, so a row handed on twice starts one run. Each process says which rows
// start it (its wiring's startsOn).

export const PROCESS_STARTS = 'process-starts';

export const startProcesses = (engine: ProcessStarter<Processes>, svc: Services): OutboxConsumer =>
  startsFrom(WIRED, engine, systemContext(svc, 'process-starts'));

/**
 * The consumer that starts what the processes' rows ask for: first the one-run-per-row starts, row
 * by row in outbox order (a row of several processes' topics starts each, in the registry's
 * order), then each batch-reading process's runs, in the registry's order.
 */
export function startsFrom<Def extends AnyProcess>(
  processes: readonly WiredProcess[],
  engine: ProcessStarter<Def>,
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
      for (const { runId, input } of await on.runs(ctx, mine)) await start(p, runId, input);
    }
  };
}
