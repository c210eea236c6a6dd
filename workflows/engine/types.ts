// The model every durable process is written in, whichever engine runs it. A process is a pure,
// deterministic decision function: it is handed an event and answers its new state and the next
// command. It never reads the clock (time comes with the event) and never does I/O (activities
// do), so Temporal can replay it and the embedded engine can resume it from a row.
// States, inputs, results and payloads must survive JSON: both engines store or send them as JSON.
// The engines' own interface (DurableEngine) is here too, below both engines and engine.ts, which
// picks one: each engine implements it without importing the module that imports it.

import type { Activities, ActivityInput, ActivityName, ActivityResult, UnionToIntersection } from './activities.js';

/** An ISO-8601 instant. Times are strings so states and commands stay plain JSON. */
export type Instant = string;

export type ProcessEvent<Input = unknown, Acts extends Activities = Activities, Signal extends string = string> =
  | { kind: 'started'; at: Instant; input: Input }
  | ActivityCompleted<Acts>
  /** Only once retries are spent: both engines retry a failed activity on their own. */
  | { kind: 'activity_failed'; at: Instant; activity: ActivityName<Acts>; error: string; attempts: number }
  | { kind: 'timer_fired'; at: Instant }
  | { kind: 'signal'; at: Instant; name: Signal; payload: unknown }
  | { kind: 'cancelled'; at: Instant };

/** An activity's result, typed by its name: switch on `event.activity` to read it. */
export type ActivityCompleted<Acts extends Activities = Activities> = {
  [A in ActivityName<Acts>]: { kind: 'activity_completed'; at: Instant; activity: A; result: ActivityResult<Acts[A]> };
}[ActivityName<Acts>];

export interface RetryPolicy {
  maxAttempts: number;
  initialIntervalMs: number;
  backoffCoefficient: number;
  maxIntervalMs: number;
}

export interface CallOptions {
  retry?: Partial<RetryPolicy>;
  /** How long one attempt may take (Temporal's start-to-close timeout; the embedded engine's lease). */
  timeoutMs?: number;
}

/** Call an activity. Unparameterised (as the engines read it): any activity, any input. */
export interface CallCommand<Activity extends string = string, Input = unknown> extends CallOptions {
  kind: 'call';
  /** The activity's own name, as an operator reads it in a Temporal history. */
  activity: Activity;
  input: Input;
}

/** A call of one of the set's activities, with that activity's input. */
export type CallOf<Acts extends Activities> = {
  [A in ActivityName<Acts>]: CallCommand<A, ActivityInput<Acts[A]>>;
}[ActivityName<Acts>];

/** Wait for a time, for one of some signals, or both: whichever comes first. */
export type WaitCommand<Signal extends string = string> =
  { kind: 'wait'; until: Instant; signals?: Signal[] } | { kind: 'wait'; until?: undefined; signals: Signal[] };

export interface EndCommand {
  kind: 'end';
  outcome: unknown;
}

/** Any command, as the engines read it. */
export type Command = CallCommand | WaitCommand | EndCommand;

/** Decide's answer: its new state and the next command, a call of one of `Acts` or a wait on some of `Signal`. */
export type Decision<State = unknown, Acts extends Activities = Activities, Signal extends string = string> = {
  state: State;
  command: CallOf<Acts> | WaitCommand<Signal> | EndCommand;
};

/**
 * Whose work a run is, so that one tenant's slow work cannot take every worker slot. On the embedded
 * engine, the runs of one process with one key (an app-mode's id) hold at most half of a server's
 * activity slots at once, and those of one lane (a webhook endpoint) at most a few; others wait.
 */
export interface Fairness {
  key?: string | null;
  lane?: string | null;
}

/**
 * A process: its state, its input, the activities it calls and the signals it hears, tied together
 * for the compiler. Declare one with `defineProcess` (define.ts).
 */
export interface ProcessDefinition<State, Input, Acts extends Activities, Signal extends string = never, Name extends string = string> {
  name: Name;
  /** Bump it whenever decide would answer a running process differently: runs finish on the version they began with. */
  version: number;
  /** The signal names the process listens for (Temporal needs them to register handlers). */
  signals: readonly Signal[];
  initialState(input: Input): State;
  decide(state: State, event: ProcessEvent<Input, Acts, Signal>): Decision<State, Acts, Signal>;
  /** Whose work a run is, read from its input at start: the embedded engine shares its activity slots by it. */
  fairness?: (input: Input) => Fairness;
  /** For the compiler only, never set: the activities the process calls, so an engine can ask for all of them. */
  readonly activityTypes?: Acts;
}

/**
 * Any process, as the engines and registries hold it (every `ProcessDefinition` is one). Its types
 * are spelt out rather than `ProcessDefinition<unknown, ...>`, so the compiler compares a typed
 * definition with it member by member.
 */
export interface AnyProcess {
  readonly name: string;
  readonly version: number;
  readonly signals: readonly string[];
  initialState(input: unknown): unknown;
  decide(state: unknown, event: ProcessEvent): { state: unknown; command: Command };
  fairness?(input: unknown): Fairness;
  readonly activityTypes?: Activities;
}

/** What starting the process takes. */
export type InputOf<Def> = Def extends { initialState(input: infer Input): unknown } ? Input : never;
/** The activities every process of a union of definitions calls, as one set. */
export type ActivitiesOf<Def> = UnionToIntersection<Def extends { readonly activityTypes?: infer Acts } ? Exclude<Acts, undefined> : never>;
/** What starting the process `Name` of the definitions `Def` takes (two versions of one process: either input). */
export type StartInput<Def extends AnyProcess, Name extends string> = Def extends unknown
  ? Name extends Def['name']
    ? InputOf<Def>
    : never
  : never;
/** Process name -> start input, for the definitions `Def`. */
export type ProcessInputs<Def extends AnyProcess> = { [Name in Def['name']]: StartInput<Def, Name> };
/** A process to start or look up: its registered name, or its definition. */
export type ProcessRef<Name extends string = string> = Name | { readonly name: Name };

/** Where a run stands, as both engines report it. */
export type RunState = 'active' | 'waiting' | 'parked' | 'ended';

export interface RunDescription {
  runId: string;
  process: string;
  state: RunState;
  startedAt: Date;
  endedAt: Date | null;
  outcome: unknown;
  /** When a waiting run's timer fires, or a failed activity is tried again. */
  wakeAt: Date | null;
  /** Attempts made at the activity being called. */
  attempts: number;
  lastError: string | null;
}

/**
 * Starts the processes `Def` (a registry's definitions) and no other: `start('erase', runId, { requestId })`
 * or `start(eraseProcess, runId, { requestId })`. A name the registry lacks or a wrong input does not compile.
 */
export interface ProcessStarter<Def extends AnyProcess = AnyProcess> {
  /** Starts a run on the process's latest version. Idempotent by run id: an existing run is left as it is. */
  start<Name extends Def['name']>(process: ProcessRef<Name>, runId: string, input: StartInput<Def, Name>): Promise<unknown>;
  /** Starts many runs of one process at once, each as start would (an engine without it is asked run by run). */
  startMany?<Name extends Def['name']>(
    process: ProcessRef<Name>,
    runs: { runId: string; input: StartInput<Def, Name> }[],
  ): Promise<unknown>;
}

/** What the service sees of durable processes, whichever engine runs them. */
export interface DurableEngine<Def extends AnyProcess = AnyProcess> extends ProcessStarter<Def> {
  /** Starts a run on the process's latest version and answers its id. Idempotent by run id: an existing run is left as it is. */
  start<Name extends Def['name']>(process: ProcessRef<Name>, runId: string, input: StartInput<Def, Name>): Promise<string>;
  /** Queued for the run's next wait that listens for this name. Throws RunNotFoundError when no running run has the id. */
  signal(runId: string, name: string, payload?: unknown): Promise<void>;
  /** The run's decide function hears `cancelled` and answers it (an ended run: nothing happens). */
  cancel(runId: string): Promise<void>;
  describe(runId: string): Promise<RunDescription | null>;
  close(): Promise<void>;
}
