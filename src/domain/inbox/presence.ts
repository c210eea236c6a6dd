import type { Clock } from '../../lib/clock.js';
import type { NoticeSource } from '../services.js';
import { tooManyRequests } from '../errors.js';

// Who is viewing a conversation in the staff console, and who is typing: ephemeral, so never a
// table. A console says so every few seconds (a heartbeat) and when it leaves; each says it with
// one NOTIFY on PRESENCE_CHANNEL, which every server process hears on its one LISTEN connection
// (the outbox dispatcher's) and keeps in memory, the sender's own process included: each process
// holds the same viewers, expires them by the same rule, and tells its own subscribers of each
// change. A viewer not heard from for PRESENCE_TTL_MS is gone, their typing after TYPING_TTL_MS.
// Notices missed while the LISTEN connection is down are not read back: the next heartbeat (or
// the expiry) puts things right within PRESENCE_TTL_MS. One per process (Services.caches.presence),
// built by openServices on the outbox dispatcher before its connection starts.

declare module '../services.js' {
  interface Caches {
    presence: Presence;
  }
}

export const PRESENCE_CHANNEL = 'crm_presence';
/** A viewer not heard from for this long is gone. A console sends its heartbeat every HEARTBEAT_SECONDS. */
export const PRESENCE_TTL_MS = 15_000;
/** A viewer's typing ends this long after the last heartbeat that said so. */
export const TYPING_TTL_MS = 5_000;
/** How often a console says it is still viewing (what the API advises; the expiry leaves room for two missed beats). */
export const HEARTBEAT_SECONDS = 5;
/** Viewers kept per conversation; a heartbeat beyond is answered false and not shown. */
export const MAX_VIEWERS_PER_CONVERSATION = 25;
/** Viewers kept per process over every conversation. */
export const MAX_VIEWERS_PER_PROCESS = 10_000;
/** Heartbeats and leaves a session may send in HEARTBEAT_WINDOW_MS (in each process): two a second on average. */
export const HEARTBEATS_PER_WINDOW = 20;
export const HEARTBEAT_WINDOW_MS = 10_000;
/** Sessions whose heartbeat counts are kept per process; beyond, the oldest window is forgotten. */
const MAX_COUNTED_SESSIONS = 10_000;
/** How often expiries are looked for while anyone is viewing. */
const SWEEP_MS = 200;
/** A name is cut to this many characters in the notice (NOTIFY payloads are at most 8000 bytes). */
const MAX_NAME = 200;

export interface Viewer {
  staffUserId: string;
  name: string;
  typing: boolean;
  /** When this viewing began (the first heartbeat after none, by the clock of the process that heard it). */
  since: Date;
}

/** A conversation's viewers now: one object per change, handed to every subscriber of the process. */
export interface PresenceState {
  conversationId: string;
  viewers: Viewer[];
}

/** What a NOTIFY says: a heartbeat (`s`: since, in ms) or a leave. */
interface Notice {
  c: string;
  u: string;
  n?: string;
  t?: boolean;
  s?: number;
  /** When the heartbeat was taken (clock ms): its viewing and typing last from then, however late a process hears of it. */
  a?: number;
  left?: boolean;
}

interface Held {
  name: string;
  since: Date;
  /** Clock times (ms) the viewing and the typing end. */
  until: number;
  typingUntil: number;
}

interface Watcher {
  staffUserId: string;
  changed(state: PresenceState): void;
}

export class Presence {
  private readonly held = new Map<string, Map<string, Held>>();
  private readonly watchers = new Map<string, Set<Watcher>>();
  private readonly states = new Map<string, PresenceState>();
  private readonly beats = new Map<string, { start: number; count: number }>();
  private total = 0;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    source: Pick<NoticeSource, 'onNotice'>,
    private readonly clock: Clock,
  ) {
    source.onNotice(PRESENCE_CHANNEL, (payload) => payload && this.heard(payload));
  }

  /** The viewers now (the same object until they change). */
  now(conversationId: string): PresenceState {
    let state = this.states.get(conversationId);
    if (!state) {
      const viewers = [...(this.held.get(conversationId) ?? [])].map(([staffUserId, h]) => ({
        staffUserId,
        name: h.name,
        typing: h.typingUntil > 0,
        since: h.since,
      }));
      viewers.sort((a, b) => a.since.getTime() - b.since.getTime() || a.staffUserId.localeCompare(b.staffUserId));
      this.states.set(conversationId, (state = { conversationId, viewers }));
    }
    return state;
  }

  /** The notice a heartbeat sends, or undefined when the conversation has no room for another viewer. */
  heartbeat(conversationId: string, staffUserId: string, name: string, typing: boolean): string | undefined {
    const known = this.held.get(conversationId)?.get(staffUserId);
    if (!known && !this.hasRoom(conversationId)) return undefined;
    const notice: Notice = {
      c: conversationId,
      u: staffUserId,
      n: name.slice(0, MAX_NAME),
      t: typing,
      s: (known?.since ?? this.clock.now()).getTime(),
      a: this.clock.now().getTime(),
    };
    return JSON.stringify(notice);
  }

  /** The notice a leave sends. */
  leave(conversationId: string, staffUserId: string): string {
    return JSON.stringify({ c: conversationId, u: staffUserId, left: true } satisfies Notice);
  }

  /** Counts a session's heartbeat or leave, refusing it (rate_limited) beyond HEARTBEATS_PER_WINDOW. */
  take(sessionId: string): void {
    const at = this.clock.now().getTime();
    let beats = this.beats.get(sessionId);
    if (!beats || at - beats.start >= HEARTBEAT_WINDOW_MS) {
      this.beats.delete(sessionId);
      if (this.beats.size >= MAX_COUNTED_SESSIONS) this.beats.delete(this.beats.keys().next().value!);
      this.beats.set(sessionId, (beats = { start: at, count: 0 }));
    }
    if (beats.count >= HEARTBEATS_PER_WINDOW)
      throw tooManyRequests(Math.max(1, Math.ceil((beats.start + HEARTBEAT_WINDOW_MS - at) / 1000)));
    beats.count++;
  }

  /**
   * Tells `changed` of each change of the conversation's viewers until the answer is called; the
   * answer says whether the member was viewing and has no other watch on it here (they left).
   */
  watch(conversationId: string, staffUserId: string, changed: (state: PresenceState) => void): () => boolean {
    let set = this.watchers.get(conversationId);
    if (!set) this.watchers.set(conversationId, (set = new Set()));
    const watcher = { staffUserId, changed };
    set.add(watcher);
    return () => {
      set.delete(watcher);
      if (!set.size && this.watchers.get(conversationId) === set) {
        this.watchers.delete(conversationId);
        // The list kept for its watchers: made again when asked for.
        this.states.delete(conversationId);
      }
      return this.held.get(conversationId)?.has(staffUserId) === true && ![...set].some((w) => w.staffUserId === staffUserId);
    };
  }

  /** Viewers held now over every conversation (tests, metrics). */
  get size(): number {
    return this.total;
  }

  private hasRoom(conversationId: string): boolean {
    return (this.held.get(conversationId)?.size ?? 0) < MAX_VIEWERS_PER_CONVERSATION && this.total < MAX_VIEWERS_PER_PROCESS;
  }

  private heard(payload: string): void {
    let notice: Notice;
    try {
      notice = JSON.parse(payload) as Notice;
    } catch {
      return;
    }
    if (typeof notice?.c !== 'string' || typeof notice.u !== 'string') return;
    const viewers = this.held.get(notice.c);
    const known = viewers?.get(notice.u);
    if (notice.left) {
      if (!known) return;
      viewers!.delete(notice.u);
      this.total--;
      if (!viewers!.size) this.held.delete(notice.c);
      return this.changed(notice.c);
    }
    const now = this.clock.now().getTime();
    // Never later than now: a process whose clock runs ahead does not lengthen anyone's presence.
    const at = typeof notice.a === 'number' ? Math.min(notice.a, now) : now;
    if (at + PRESENCE_TTL_MS <= now) return;
    const typingUntil = notice.t && at + TYPING_TTL_MS > now ? at + TYPING_TTL_MS : 0;
    const name = String(notice.n ?? '');
    if (known) {
      const was = known.typingUntil > 0;
      known.until = Math.max(known.until, at + PRESENCE_TTL_MS);
      known.typingUntil = typingUntil;
      if (was === typingUntil > 0 && known.name === name) return;
      known.name = name;
      return this.changed(notice.c);
    }
    if (!this.hasRoom(notice.c)) return;
    const since = new Date(typeof notice.s === 'number' ? notice.s : at);
    let map = viewers;
    if (!map) this.held.set(notice.c, (map = new Map()));
    map.set(notice.u, { name, since, until: at + PRESENCE_TTL_MS, typingUntil });
    this.total++;
    this.changed(notice.c);
    this.sweeping();
  }

  private changed(conversationId: string): void {
    this.states.delete(conversationId);
    const watchers = this.watchers.get(conversationId);
    if (!watchers) return;
    const state = this.now(conversationId);
    for (const w of [...watchers]) w.changed(state);
  }

  private sweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  private sweep(): void {
    const at = this.clock.now().getTime();
    for (const [conversationId, viewers] of [...this.held]) {
      let changed = false;
      for (const [staffUserId, h] of [...viewers]) {
        if (h.until <= at) {
          viewers.delete(staffUserId);
          this.total--;
          changed = true;
        } else if (h.typingUntil && h.typingUntil <= at) {
          h.typingUntil = 0;
          changed = true;
        }
      }
      if (!viewers.size) this.held.delete(conversationId);
      if (changed) this.changed(conversationId);
    }
    if (!this.total) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}
