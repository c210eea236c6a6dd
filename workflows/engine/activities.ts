// Activities are plain async functions over dependencies passed in, built per process as
// `(deps) => ({ activityName: async (input) => result })`. Both engines may run one more than
// once (a retry after a lost answer, a worker lost mid-call), so each must be idempotent.

/** `never` accepts any one-argument function; the engines pass the input a command carries. */
export type Activity = (input: never) => Promise<unknown>;
export type Activities = Record<string, Activity>;

/** One set from every process's activities. Names are what Temporal histories show, and they share one task queue: a clash is a bug. */
export function registerActivities(...sets: Activities[]): Activities {
  const all: Activities = {};
  for (const set of sets) {
    for (const [name, fn] of Object.entries(set)) {
      if (name in all) throw new Error(`activity ${name} is registered twice`);
      all[name] = fn;
    }
  }
  return all;
}
