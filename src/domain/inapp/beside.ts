import type { Services } from '../context.js';

// Check-ins of one person that this server process answers at the same time. The one that claimed
// the slot (the real one) is answered anew; a throttled one beside it waits for that answer rather
// than reading the one kept before it, which the real one may be about to replace. Nothing is
// written for it: the waiting is in memory, and only a check-in of the same person waits. A real
// check-in answered by another process is not seen here: the throttled one reads the kept answer
// (checkin.ts).

export interface Member<A> {
  /** When it claimed the slot; undefined once it knows it did not (throttled, erased, failed). */
  claimed: Promise<Date | undefined>;
  /** The answer it gave when it claimed; undefined when it failed. */
  answered: Promise<A | undefined>;
  /** Done; a real one's answer stays here, for the check-ins still in flight, until a later real one is done. */
  done: boolean;
  real: boolean;
}

/** The check-ins in flight in this process, by person. */
export type CheckinsInFlight = Map<string, Set<Member<unknown>>>;

declare module '../services.js' {
  interface Caches {
    /** Check-ins of each person this process is answering now (none kept past them). */
    checkinsInFlight: CheckinsInFlight;
  }
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export interface Beside<A> {
  /** This check-in claimed the slot at `at` (or did not: undefined). */
  claimed(at: Date | undefined): void;
  /** This check-in's answer, for the throttled ones beside it. */
  answered(answer: A): void;
  /** The answer of the check-in beside this one that claimed the slot at `at`; undefined when none here did. */
  answerOfClaim(at: Date): Promise<A | undefined>;
  /** Done: called once, whatever happened. */
  leave(): void;
}

/** Joins the check-ins of `person` (`appModeId:externalId`) in flight in this process; call before the slot is claimed. */
export function checkInBeside<A>(svc: Services, person: string): Beside<A> {
  const people = svc.caches.checkinsInFlight;
  let members = people.get(person);
  if (!members) people.set(person, (members = new Set()));
  const all = members as Set<Member<A>>;
  const claimed = deferred<Date | undefined>();
  const answered = deferred<A | undefined>();
  const me: Member<A> = { claimed: claimed.promise, answered: answered.promise, done: false, real: false };
  all.add(me);
  return {
    claimed(at) {
      me.real = at !== undefined;
      claimed.resolve(at);
    },
    answered: answered.resolve,
    answerOfClaim(at) {
      // The real one joined before it claimed, so before this one was told it was throttled: it is
      // here. Whichever other check-in says it claimed at `at` first is the one; none: undefined.
      const others = [...all].filter((m) => m !== me);
      return new Promise((resolve) => {
        let left = others.length;
        if (!left) resolve(undefined);
        for (const other of others)
          void other.claimed.then((claimedAt) => {
            if (claimedAt?.getTime() === at.getTime()) void other.answered.then(resolve);
            else if (--left === 0) resolve(undefined);
          });
      });
    },
    leave() {
      claimed.resolve(undefined);
      answered.resolve(undefined);
      me.done = true;
      // A real one's answer replaces the earlier real ones'; what is done otherwise is forgotten.
      for (const m of all) if (m.done && (m === me ? !m.real : me.real && m.real)) all.delete(m);
      if ([...all].every((m) => m.done) && people.get(person) === all) people.delete(person);
    },
  };
}

/** How many people have check-ins in flight in this process (none once all are answered: nothing is kept past them). */
export const peopleInFlight = (svc: Services): number => svc.caches.checkinsInFlight.size;
