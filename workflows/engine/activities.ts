// Activities are plain async functions over dependencies passed in, built per process as
// `(deps) => ({ activityName: async (input) => result })`. Both engines may run one more than
// once (a retry after a lost answer, a worker lost mid-call), so each must be idempotent.
//
// A process's decide module names its activities by type only, as Temporal's workflows do with
// `proxyActivities<typeof activities>`: `type EraseActivities = ReturnType<typeof eraseActivities>`,
// imported with `import type`, so the module stays free of what the activities import.

/** `never` accepts any one-argument function; the engines pass the input a command carries. */
export type Activity = (input: never) => Promise<unknown>;
/** A set of activities by name. A process's own set is an object type (what a factory returns), not an interface. */
export type Activities = Record<string, Activity>;

export type ActivityName<Acts extends Activities> = keyof Acts & string;
/** What a call of the activity carries; `unknown` for the untyped `Activity`. */
export type ActivityInput<F> = F extends (input: infer I) => unknown ? ([I] extends [never] ? unknown : I) : never;
/** What the activity's promise resolves to, handed back to decide. */
export type ActivityResult<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;

export type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Merged<Sets extends Activities[]> = [Sets[number]] extends [never] ? Activities : UnionToIntersection<Sets[number]>;

/** One set from every process's activities. Names are what Temporal histories show, and they share one task queue: a clash is a bug. */
export function registerActivities<Sets extends Activities[]>(...sets: Sets): Merged<Sets> {
  const all: Activities = {};
  for (const set of sets) {
    for (const [name, fn] of Object.entries(set)) {
      if (name in all) throw new Error(`activity ${name} is registered twice`);
      all[name] = fn;
    }
  }
  return all as Merged<Sets>;
}
