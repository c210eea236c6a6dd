import type { OutboxRow } from '../db/outbox-dispatcher.js';
import type { DomainError } from '../domain/errors.js';
import { MEMBERSHIP_CHANGED, SERVICE_WIDE, SESSION_ENDED } from '../domain/outbox.js';
import { accessRefusal, targetOf, type Target, type TargetKind } from '../domain/app-access.js';
import type { Action, Role } from '../domain/staff/roles.js';
import type { OutboxReader } from '../domain/services.js';
import { accessFor } from './access.js';
import { sessionOf, unauthenticated, type StaffContext } from './context.js';

// Who may see what a staff subscription streams is decided once, when it starts (its authScopes,
// as for any field), and kept here in memory. The outbox notices of a change to it end the
// subscription in every server process, with the refusal a new request would get: a session
// signed out (`unauthenticated`), a member removed (`not_found`) or moved to a role that no
// longer allows the action (`role_forbids`). Nothing is read per change.

interface Grant {
  sessionId: string;
  member: string;
  workspaceId: string;
  kind: TargetKind;
  action: Action;
  end(refusal: DomainError): void;
}

type Heard<T> = Map<string, { value: T; at: number }>;

/** How long notices are remembered: a subscription whose reads came before a notice it was not yet listening for still ends. */
const REMEMBER_MS = 60_000;

const memberKey = (workspaceId: string, staffUserId: string) => `${workspaceId}:${staffUserId}`;
/** What a request would now be refused with, given the member's new role (null: no longer a member). */
const refusalFor = (grant: Grant, role: Role | null) =>
  accessRefusal(grant.kind, role ? { workspaceId: grant.workspaceId, role } : undefined, grant.action);

/** One process's grants, ended by the notices its dispatcher hears. */
class Grants {
  private readonly bySession = new Map<string, Set<Grant>>();
  private readonly byMember = new Map<string, Set<Grant>>();
  private readonly endedSessions: Heard<true> = new Map();
  private readonly roles: Heard<Role | null> = new Map();

  constructor(outbox: Pick<OutboxReader, 'hear'>) {
    outbox.hear(SESSION_ENDED, SERVICE_WIDE, (row) => this.sessionEnded(row));
    outbox.hear(MEMBERSHIP_CHANGED, SERVICE_WIDE, (row) => this.membershipChanged(row));
  }

  /** Keeps a grant whose session and access were read after `readSince`; answers the way to drop it. */
  add(grant: Grant, readSince: number): () => void {
    this.forgetOld();
    const ended = this.endedSessions.get(grant.sessionId);
    const role = this.roles.get(grant.member);
    const refusal =
      ended && ended.at >= readSince ? unauthenticated() : role && role.at >= readSince ? refusalFor(grant, role.value) : undefined;
    if (refusal) {
      grant.end(refusal);
      return () => {};
    }
    const sets = [setOf(this.bySession, grant.sessionId), setOf(this.byMember, grant.member)];
    for (const set of sets) set.add(grant);
    return () => {
      for (const [map, key] of [
        [this.bySession, grant.sessionId],
        [this.byMember, grant.member],
      ] as const) {
        map.get(key)?.delete(grant);
        if (!map.get(key)?.size) map.delete(key);
      }
    };
  }

  private sessionEnded(row: OutboxRow): void {
    this.forgetOld();
    const sessionId = String(row.data.sessionId);
    heard(this.endedSessions, sessionId, true);
    for (const grant of this.bySession.get(sessionId) ?? []) grant.end(unauthenticated());
  }

  private membershipChanged(row: OutboxRow): void {
    this.forgetOld();
    const { workspaceId, staffUserId, role } = row.data as { workspaceId: string; staffUserId: string; role: Role | null };
    const member = memberKey(workspaceId, staffUserId);
    heard(this.roles, member, role);
    for (const grant of this.byMember.get(member) ?? []) {
      const refusal = refusalFor(grant, role);
      if (refusal) grant.end(refusal);
    }
  }

  private forgetOld(): void {
    const before = Date.now() - REMEMBER_MS;
    for (const heard of [this.endedSessions, this.roles] as Heard<unknown>[])
      for (const [key, { at }] of heard) {
        if (at >= before) break; // oldest first (see heard)
        heard.delete(key);
      }
  }
}

/** Remembers a notice; re-inserted, so each map stays in the order notices were heard. */
function heard<T>(map: Heard<T>, key: string, value: T): void {
  map.delete(key);
  map.set(key, { value, at: Date.now() });
}

function setOf<T>(map: Map<string, Set<T>>, key: string): Set<T> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

const grantsOf = new WeakMap<OutboxReader, Grants>();

/**
 * A staff subscription's stream, kept only while the viewer may do `action` on `target`: what
 * `start(signal)` yields, until the subscriber stops (the signal aborts) or a notice takes the
 * right away (the stream then fails with the refusal). Every staff subscription goes through here:
 *
 *   subscribe: (_root, { appModeId, after }, ctx) =>
 *     liveFor(ctx, { appModeId }, 'read', (signal) => ticketChanges(ctx.svc, appModeId, { after, signal })),
 */
export async function liveFor<T>(
  ctx: StaffContext,
  target: Target,
  action: Action,
  start: (signal: AbortSignal) => AsyncGenerator<T>,
): Promise<AsyncIterableIterator<T>> {
  const { staffUser, sessionId, expiresAt } = sessionOf(ctx);
  // Read (once per request) by the field's authScopes already.
  const { workspaceId, role } = await accessFor(ctx, target, action);
  ctx.liveAccess = { workspaceId, role };
  let grants = grantsOf.get(ctx.svc.outbox);
  if (!grants) grantsOf.set(ctx.svc.outbox, (grants = new Grants(ctx.svc.outbox)));
  // One plain iterator around the stream, not a generator around it: a change passes through
  // every subscriber's stream, and each layer of generators is paid once per subscriber per change.
  // The stream's signal aborts when the subscriber stops, the stream ends or fails, or the right
  // goes: an async generator cannot run its `finally` while it awaits its next notice, so a plain
  // `return()` would wait for a change that may never come; the abort ends that wait at once.
  const stream = new AbortController();
  let refusal: DomainError | undefined;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    stream.abort();
    expiry.cancel();
    drop();
  };
  const drop = grants.add(
    {
      sessionId,
      member: memberKey(workspaceId, staffUser.id),
      workspaceId,
      kind: targetOf(target)[0],
      action,
      end: (r) => {
        refusal ??= r;
        stream.abort();
      },
    },
    ctx.startedAt,
  );
  // A session ends at its expiry too: the subscription with it, as a new request would be refused.
  const expiry = atTime(expiresAt.getTime() - ctx.svc.clock.now().getTime(), () => {
    refusal ??= unauthenticated();
    stream.abort();
  });
  const source = start(stream.signal);
  /** Ends with the refusal, the stream closed (it ends at once: its signal is aborted). */
  const refuse = async (): Promise<never> => {
    end();
    await source.return(undefined);
    throw refusal;
  };
  const iterator: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      if (refusal) return refuse();
      let step: IteratorResult<T>;
      try {
        step = await source.next();
      } catch (err) {
        end();
        throw err;
      }
      if (refusal) return refuse();
      if (step.done) end();
      return step;
    },
    return(value?: unknown) {
      end();
      return source.return(value as T);
    },
    throw(err?: unknown) {
      end();
      return source.throw(err);
    },
  };
  return iterator;
}

/** Node's timers hold at most about 24.8 days; a longer wait is taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `fn` after `ms` (at once when it is not positive), unless cancelled first; never keeps the process alive. */
function atTime(ms: number, fn: () => void): { cancel(): void } {
  let timer: NodeJS.Timeout;
  const wait = (left: number) => {
    timer = setTimeout(() => (left > MAX_TIMER_MS ? wait(left - MAX_TIMER_MS) : fn()), Math.max(0, Math.min(left, MAX_TIMER_MS)));
    timer.unref();
  };
  wait(ms);
  return { cancel: () => clearTimeout(timer) };
}
