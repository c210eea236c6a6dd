import type { Activities, ActivityInput, ActivityName } from './activities.js';
import type { CallCommand, CallOptions, Decision, Fairness, ProcessDefinition, ProcessEvent } from './types.js';

// How a process is declared. Its decide module states the process's types once,
//
//   import type { EraseActivities } from './activities.js';   // ReturnType<typeof eraseActivities>
//   const { call, define } = defineProcess<EraseState, EraseInput, EraseActivities>();
//
// and from then on the compiler holds the process to them, as `proxyActivities<typeof activities>`
// does a Temporal workflow: `call('eraseContactData', { requestId })` takes only an activity of the
// set with that activity's input, decide hears each activity's own result type and answers only
// calls of the set and waits on the signals it lists, and `define({ name: 'erase', ... })` keeps
// the name as a literal so a registry of definitions types `engine.start('erase', runId, input)`.
// Type-only imports keep the decide module pure (the Temporal workflow bundle takes it in).
// A decide function written apart from `define` is typed `(state: S, event: ProcessEvent<I, A, Sig>)
// => Decision<S, A, Sig>`, `Sig` being the signals listed (`never` for none).

/** What a decide module writes; `define` checks it against the process's types. */
export interface ProcessSpec<Name extends string, State, Input, Acts extends Activities, Signal extends string> {
  name: Name;
  /** Bump it whenever decide would answer a running process differently: runs finish on the version they began with. */
  version: number;
  /** The names of the signals the process hears (Temporal registers a handler for each); its waits may name only these. */
  signals: readonly Signal[];
  // Properties, not methods: the compiler checks their parameters strictly. NoInfer: only `signals` says what the signals are.
  initialState: (input: Input) => State;
  decide: (state: State, event: ProcessEvent<Input, Acts, NoInfer<Signal>>) => Decision<State, Acts, NoInfer<Signal>>;
  /** Whose work a run is (its app-mode, and a lane such as a webhook endpoint), read from its input. */
  fairness?: (input: Input) => Fairness;
}

export interface ProcessKit<State, Input, Acts extends Activities> {
  /** A call command for one of the process's activities, with that activity's input. */
  call<A extends ActivityName<Acts>>(
    activity: A,
    input: ActivityInput<Acts[A]>,
    options?: CallOptions,
  ): CallCommand<A, ActivityInput<Acts[A]>>;
  /** The definition to register. The name stays a literal type, for typed starts; the signals are those listed. */
  define<const Name extends string, const Signal extends string = never>(
    spec: ProcessSpec<Name, State, Input, Acts, Signal>,
  ): ProcessDefinition<State, Input, Acts, Signal, Name>;
}

/**
 * The typed helpers of one process: `State` what decide keeps, `Input` what a start hands it,
 * `Acts` its activities (`ReturnType<typeof someActivities>`). Pure: nothing happens at run time
 * but building plain objects.
 */
export function defineProcess<State, Input, Acts extends Activities>(): ProcessKit<State, Input, Acts> {
  return {
    call: (activity, input, options = {}) => ({ kind: 'call', activity, input, ...options }),
    define: (spec) => spec,
  };
}
