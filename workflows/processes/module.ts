import type { OutboxRow } from '../../src/db/outbox-dispatcher.js';
import type { Ctx, Services } from '../../src/domain/context.js';
import type { ActivitiesOf, AnyProcess, InputOf } from '../engine/types.js';

// How a process is plugged into the service. Its folder holds three modules:
//
//   decide.ts      the definition (defineProcess): pure, the Temporal workflow bundle runs it;
//   activities.ts  its activities over the service's dependencies (they do the I/O);
//   wiring.ts      `export default wireProcess(definition, { activities, startsOn })`: the activities
//                  factory and which outbox rows start a run, with what run id and input.
//
// and the registry (registry.ts) lists it once, `processModule(definition, () => import('./x/wiring.js'))`.
// The engines, the Temporal workflows, the activities set and the starts from the outbox are all
// derived from that list. The wiring is loaded by a dynamic import the bundler leaves alone, since
// the registry is in the workflow bundle, a sandbox that must hold no I/O. Type-only imports keep
// this module pure too.

/** A run to start: its id (a start is idempotent by it: a row handed on twice starts one run) and the process's input. */
export interface RunStart<Input> {
  runId: string;
  input: Input;
}

/** Which outbox rows start runs of a process. Rows are taken in outbox order. */
export type StartsOn<Input> =
  /** One run per row of these topics, its id and input read from the row. */
  | { topics: readonly string[]; runId: (row: OutboxRow) => string; input: (row: OutboxRow) => Input }
  /**
   * The runs a batch of rows (of these topics, or all) asks for, read at once: a webhook delivery
   * per endpoint that wants a row, say. Called after the one-per-row starts of the batch.
   */
  | { topics: readonly string[] | 'all'; runs: (ctx: Ctx, rows: readonly OutboxRow[]) => Promise<RunStart<Input>[]> };

/** What an outbox row asks of a running run: a signal (its decide function hears it at its next wait that listens), or a cancel. */
export type RunSteer = { runId: string; signal: string; payload?: unknown } | { runId: string; cancel: true };

/**
 * Which outbox rows steer runs under way, read a batch at a time after the batch's starts. A run that
 * has ended is passed over. What a batch asks may come a page at a time (an async iterable of pages),
 * each page sent before the next is read: a row that asks of very many runs is never held whole.
 */
export interface SteersOn {
  topics: readonly string[];
  steers: (ctx: Ctx, rows: readonly OutboxRow[]) => Promise<RunSteer[]> | AsyncIterable<RunSteer[]>;
}

/** What the service runs of a process beside its decide function. */
export interface ProcessWiring<Def extends AnyProcess> {
  /** Every activity the process calls, each with the signature its decide module expects. */
  activities: (svc: Services) => ActivitiesOf<Def>;
  startsOn: StartsOn<InputOf<Def>>;
  steersOn?: SteersOn;
}

/** A wiring.ts's default export: checked against the definition it wires (its activities, its start input). */
export const wireProcess = <Def extends AnyProcess>(definition: Def, wiring: ProcessWiring<NoInfer<Def>>): ProcessWiring<Def> => {
  void definition; // taken for its type only
  return wiring;
};

/** A process as the registry lists it: its definition, and its wiring, loaded by the service (never by the workflow bundle). */
export interface ProcessModule<Def extends AnyProcess = AnyProcess> {
  readonly definition: Def;
  readonly wiring: () => Promise<{ default: ProcessWiring<Def> }>;
}

/** A line of the registry. The wiring must be the definition's own: another process's does not compile. */
export const processModule = <Def extends AnyProcess>(
  definition: Def,
  wiring: () => Promise<{ default: ProcessWiring<NoInfer<Def>> }>,
): ProcessModule<Def> => ({ definition, wiring });
