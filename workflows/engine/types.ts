// The model every durable process is written in, whichever engine runs it. A process is a pure,
// deterministic decision function: it is handed an event and answers its new state and the next
// command. It never reads the clock (time comes with the event) and never does I/O (activities
// do), so Temporal can replay it and the embedded engine can resume it from a row.
// States, inputs, results and payloads must survive JSON: both engines store or send them as JSON.

/** An ISO-8601 instant. Times are strings so states and commands stay plain JSON. */
export type Instant = string;

export type ProcessEvent<Input = unknown> =
  | { kind: 'started'; at: Instant; input: Input }
  | { kind: 'activity_completed'; at: Instant; activity: string; result: unknown }
  /** Only once retries are spent: both engines retry a failed activity on their own. */
  | { kind: 'activity_failed'; at: Instant; activity: string; error: string; attempts: number }
  | { kind: 'timer_fired'; at: Instant }
  | { kind: 'signal'; at: Instant; name: string; payload: unknown }
  | { kind: 'cancelled'; at: Instant };

export interface RetryPolicy {
  maxAttempts: number;
  initialIntervalMs: number;
  backoffCoefficient: number;
  maxIntervalMs: number;
}

export interface CallCommand {
  kind: 'call';
  /** The activity's own name, as an operator reads it in a Temporal history. */
  activity: string;
  input: unknown;
  retry?: Partial<RetryPolicy>;
  /** How long one attempt may take (Temporal's start-to-close timeout; the embedded engine's lease). */
  timeoutMs?: number;
}

/** Wait for a time, for one of some signals, or both: whichever comes first. */
export type WaitCommand =
  | { kind: 'wait'; until: Instant; signals?: string[] }
  | { kind: 'wait'; until?: undefined; signals: string[] };

export interface EndCommand {
  kind: 'end';
  outcome: unknown;
}

export type Command = CallCommand | WaitCommand | EndCommand;

export interface Decision<State> {
  state: State;
  command: Command;
}

export interface ProcessDefinition<State = unknown, Input = unknown> {
  name: string;
  /** Bump it whenever decide would answer a running process differently: runs finish on the version they began with. */
  version: number;
  /** The signal names the process listens for (Temporal needs them to register handlers). */
  signals: readonly string[];
  initialState(input: Input): State;
  decide(state: State, event: ProcessEvent<Input>): Decision<State>;
}

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
