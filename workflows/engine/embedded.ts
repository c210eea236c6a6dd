import type { Services } from '../../src/domain/context.js';
import type { Tx } from '../../src/db/client.js';
import { type WorkflowRun } from '../../src/generated/prisma/client.js';
import { createLogger, type Logger } from '../../src/lib/logger.js';
import type { Activities } from './activities.js';
import { defaultTimeoutMs, timeoutOf } from './commands.js';
import { RunNotFoundError } from './errors.js';
import type { ProcessRegistry } from './registry.js';
import {
  advance,
  afterFailure,
  cancelPending,
  commandOf,
  describeRun,
  heartbeatOf,
  setsOf,
  settle,
  stepWithoutActivity,
  type RunChange,
} from './run-row.js';
import type { ActivitiesOf, AnyProcess, CallCommand, Command, DurableEngine, ProcessRef, RunDescription, StartInput } from './types.js';
import { exec, raw, rows, sql, type Sql } from '../../src/db/sql.js';
import { isConnectionLost, isConnectionRefused, throughCuts } from '../../src/db/lost-connection.js';

// The durable-process engine on PostgreSQL, for deployments without Temporal. Each run is a row
// of workflow_run. Any number of server processes advance the due rows, each claimed with
// FOR UPDATE SKIP LOCKED. Steps without I/O (timers, signals, cancels) happen inside that short
// transaction. An activity runs outside it, under a short lease (the row's wake time moves to the
// lease's end and its revision is bumped) that the process running it extends by a heartbeat, one
// statement for all of its runs every few seconds; the activity's own timeout still bounds the
// attempt. Its result is saved with the step it leads to, in one transaction, only if the revision
// is still the one it claimed (a lost connection: saved again, the result held in memory). A
// worker that dies mid-activity stops heartbeating: its leases run out within the lease and any
// live process retries the attempt, so activities run at least once and a step is never lost. An
// attempt lost with its worker is retried with the same input even past the retry policy (a few
// times), so a process never hears of a failure for an activity that was never done.
// Fair between tenants: steps without I/O never wait for an activity slot, and a run that starts an
// activity waits while its process's runs of its key (an app-mode) hold half of the slots, or those
// of its lane (a webhook endpoint) 4, so one tenant's slow work costs that tenant.

export interface EmbeddedEngineOptions {
  /** How often to look for due runs when nothing in this process says there is one. */
  pollMs?: number;
  /** Activities this process runs at once (and the most runs of each kind claimed in one transaction). */
  batchSize?: number;
  /** Activities the runs of one process and one fairness key may hold at once, across servers (half of batchSize). */
  keyCap?: number;
  /** Activities the runs of one process and one lane (a webhook endpoint) may hold at once, across servers. */
  laneCap?: number;
  /**
   * Slots of this process kept for keys that hold none (a quarter of batchSize): a key already
   * holding an activity takes a slot only while more than this many are free, so tenants flooding
   * together still leave room for a tenant that comes with one quick step.
   */
  reserve?: number;
  /**
   * How long a running activity's lease lasts without a heartbeat (the config's
   * embeddedEngineLeaseMs, EMBEDDED_ENGINE_LEASE_MS): a killed process's runs are taken up this soon.
   */
  leaseMs?: number;
  /** How often the leases of the activities this process runs are extended (three tenths of the lease; tests make it quicker). */
  heartbeatMs?: number;
  log?: Logger;
}

interface Claimed {
  def: AnyProcess;
  run: WorkflowRun;
  call: CallCommand;
}

/** What one lane (a receiving endpoint) may hold at once: a few posts, as webhook senders commonly allow one endpoint. */
const LANE_CAP = 4;
/** The longest pause between passes while they keep failing. */
const MAX_BACKOFF_MS = 10_000;
/** The longest pause while claims keep failing on a connection that was cut (the database itself answers): a failover or a cut connection is over in moments. */
const MAX_CUT_BACKOFF_MS = 1_000;
/** How long a run whose step cannot be taken here (its decide threw, its version is unknown) waits before the next try. */
const STUCK_RETRY_MS = 60_000;
/** The most due runs one claim reads before ranking them (the oldest first, tenants at their cap passed over). */
const CANDIDATES_PER_SLOT = 8;
/**
 * How many of the oldest due runs a quick claim looks through for its candidates (per slot). A claim
 * that passes over every due run of a tenant at its cap reads that tenant's whole due backlog (a
 * wake shared by a large audience): only a full claim does, at most every FULL_CLAIM_MS (or ten
 * times as long as the last one took), so a tenant's first run behind such a backlog is still found
 * within that time; the claims between, one per activity ended, look through this window and the
 * due runs of the tenants already holding activities.
 */
const WINDOW_PER_SLOT = 4;
const FULL_CLAIM_MS = 250;

/** A time for raw SQL on `timestamp(3)` columns, which hold UTC. */
const utc = (at: Date) => sql`(${at.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class EmbeddedEngine<Def extends AnyProcess = AnyProcess> implements DurableEngine<Def> {
  private readonly db: Services['db'];
  /** Where its SQL runs: the pool, or a transaction of the database's own. */
  private readonly sqlOn: Pick<Services, 'db' | 'pool'>;
  private readonly clock: Services['clock'];
  private readonly log: Logger;
  /** Looked up by the name a call command carries. */
  private readonly activities: Activities;
  private readonly pollMs: number;
  /** When the next claim reads past the due runs passed over (performance.now()). */
  private nextFullClaim = 0;
  private readonly batchSize: number;
  private readonly keyCap: number;
  private readonly laneCap: number;
  private readonly reserve: number;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private nudged = false;
  private wake: (() => void) | undefined;
  /** Activities running now, by this engine's passes. */
  private readonly running = new Set<Promise<void>>();
  /** The runs whose activity this process runs, by id: the revision their lease was taken at. */
  private readonly leases = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** A heartbeat is on its way: the next one waits for the one after. */
  private beating = false;
  /** Claims failed in a row: the background loop waits longer after each. */
  private claimFailures = 0;
  /** The last claim failed on a connection that was cut (not refused): the pause stays short. */
  private claimCut = false;

  constructor(
    svc: Pick<Services, 'db' | 'pool' | 'clock' | 'config'>,
    private readonly registry: ProcessRegistry<Def>,
    activities: NoInfer<ActivitiesOf<Def>>,
    opts: EmbeddedEngineOptions = {},
  ) {
    this.db = svc.db;
    this.sqlOn = svc;
    this.clock = svc.clock;
    this.activities = activities as Activities;
    this.log = opts.log ?? createLogger(svc.config.logLevel);
    this.pollMs = opts.pollMs ?? 300;
    this.batchSize = opts.batchSize ?? 16;
    this.keyCap = opts.keyCap ?? Math.max(1, Math.floor(this.batchSize / 2));
    this.laneCap = opts.laneCap ?? LANE_CAP;
    this.reserve = opts.reserve ?? Math.max(1, Math.floor(this.batchSize / 4));
    this.leaseMs = opts.leaseMs ?? svc.config.embeddedEngineLeaseMs;
    this.heartbeatMs = opts.heartbeatMs ?? heartbeatOf(this.leaseMs);
  }

  async start<Name extends Def['name']>(process: ProcessRef<Name>, runId: string, input: StartInput<Def, Name>): Promise<string> {
    await this.startMany(process, [{ runId, input }]);
    return runId;
  }

  /** Starts runs of one process by one statement (a burst of deliveries was a round trip each). */
  async startMany<Name extends Def['name']>(
    process: ProcessRef<Name>,
    runs: { runId: string; input: StartInput<Def, Name> }[],
  ): Promise<void> {
    if (!runs.length) return;
    const def = this.registry.latest(process);
    const now = this.clock.now();
    await this.db.workflowRun.createMany({
      data: runs.map(({ runId, input }) => {
        const decision = def.decide(def.initialState(input), { kind: 'started', at: now.toISOString(), input });
        const fairness = def.fairness?.(input);
        return {
          id: runId,
          process: def.name,
          processVersion: def.version,
          startedAt: now,
          fairKey: fairness?.key ?? null,
          lane: fairness?.lane ?? null,
          ...settle(decision, now, [], false),
        };
      }),
      skipDuplicates: true,
    });
    this.nudge();
  }

  async signal(runId: string, name: string, payload: unknown = null): Promise<void> {
    const now = this.clock.now();
    const entry = JSON.stringify([{ name, payload, receivedAt: now.toISOString() }]);
    // A run waiting for this signal falls due now; an active one finds it in the inbox at its next wait.
    const updated = await exec(
      this.sqlOn,
      sql`
      UPDATE workflow_run SET inbox = inbox || ${entry}::jsonb,
        wake_at = CASE WHEN status IN ('waiting', 'parked') AND command->'signals' @> ${JSON.stringify([name])}::jsonb
                  THEN ${utc(now)} ELSE wake_at END
      WHERE id = ${runId} AND status <> 'ended'`,
    );
    if (updated === 0) throw new RunNotFoundError(runId);
    this.nudge();
  }

  async cancel(runId: string): Promise<void> {
    const now = this.clock.now();
    // Due at once, even mid-activity: like Temporal's default, decide hears of the cancel without
    // waiting for the activity, whose late result is then dropped. Only the first cancel counts.
    const updated = await exec(
      this.sqlOn,
      sql`
      UPDATE workflow_run SET cancel_requested_at = ${utc(now)}, wake_at = ${utc(now)}
      WHERE id = ${runId} AND status <> 'ended' AND cancel_requested_at IS NULL`,
    );
    if (updated === 0 && !(await this.db.workflowRun.count({ where: { id: runId } }))) throw new RunNotFoundError(runId);
    this.nudge();
  }

  async describe(runId: string): Promise<RunDescription | null> {
    const run = await this.db.workflowRun.findUnique({ where: { id: runId } });
    return run && describeRun(run);
  }

  /**
   * Takes every step that is due, activities included, until none is left and none is running;
   * returns how many runs it stepped. Up to `batchSize` activities run at once, and a slot freed by
   * one that ends is filled at once (a slow post does not hold back the runs claimed beside it).
   * Steps that need no slot (a timer's wake, a signal, a cancel) are taken while every slot is busy:
   * it looks again at each poll and each nudge, not only when an activity ends.
   */
  async runDue(): Promise<number> {
    let stepped = 0;
    for (;;) {
      // Closing: nothing more is claimed; the steps in hand end and are recorded, and the runs due
      // are left to the next engine (a restart of a long sending stops halfway, not at its end).
      if (this.stopping) {
        await Promise.all(this.running);
        return stepped;
      }
      const room = this.batchSize - this.running.size;
      const { claimed, calls } = await this.claimDue(room).then(
        (answer) => ((this.claimFailures = 0), answer),
        (err: unknown) => {
          this.claimFailures++;
          this.claimCut = isConnectionLost(err) && !isConnectionRefused(err);
          throw err;
        },
      );
      stepped += claimed;
      for (const call of calls) {
        const performed: Promise<void> = this.perform(call).finally(() => this.running.delete(performed));
        this.running.add(performed);
      }
      // More may be due: steps without a slot were taken (the calls they lead to came due after the
      // lease was read), or every slot offered was leased, or an activity ended while claiming (its
      // slot was not offered, and its run may be due again). A claim that leased fewer than it was
      // offered found no more it may take now: the next looks when an activity ends.
      const freed = this.batchSize - this.running.size > room - calls.length;
      const filled = calls.length > 0 && calls.length >= room;
      if (claimed > calls.length || filled || freed) continue;
      if (this.running.size === 0) return stepped;
      // Look again when an activity ends (its run may be due again), at a nudge, or at the next poll.
      const ended = Promise.race(this.running);
      await (this.stopping ? ended : this.idle(this.pollMs, ended));
    }
  }

  /** Advances due runs in the background until close(). */
  startWorker(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.work();
  }

  /** Stops the background loop: the steps in hand end, nothing more is claimed. */
  async close(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  private async work(): Promise<void> {
    let logged = 0;
    while (!this.stopping) {
      try {
        await this.runDue();
      } catch (err) {
        // The database is away, most likely: say so once a while, not at every poll.
        if (logged++ % 20 === 0) this.log.error({ err, failures: this.claimFailures }, 'durable processes: a pass failed');
      }
      // Backs off while claims keep failing; a claim that went through (the connection was cut once) starts afresh.
      const failures = this.claimFailures;
      const most = this.claimCut ? MAX_CUT_BACKOFF_MS : MAX_BACKOFF_MS;
      await this.idle(failures ? Math.min(this.pollMs * 2 ** failures, most) : this.pollMs);
    }
  }

  /** Waits `ms`, or less when nudged, stopped or `orWhen` settles. */
  private async idle(ms: number, orWhen?: Promise<void>): Promise<void> {
    if (this.nudged || this.stopping) {
      this.nudged = false;
      return;
    }
    let done!: () => void;
    const woken = new Promise<void>((resolve) => (done = resolve));
    const timer = setTimeout(done, ms);
    this.wake = done;
    try {
      await (orWhen ? Promise.race([woken, orWhen]) : woken);
    } finally {
      clearTimeout(timer);
      if (this.wake === done) this.wake = undefined;
      this.nudged = false;
    }
  }

  /** Something this process did made a run due: look now rather than at the next poll. */
  private nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /**
   * Claims due runs: up to `room` that start an activity, leased by one statement on its own (no
   * transaction held open around it), and up to `batchSize` whose step needs no slot, taken in a
   * transaction only when that statement saw one due. Oldest due first. A run that starts an
   * activity is passed over while its process's runs of its key already hold `keyCap` activities
   * (across servers, the runs leased by this statement counted), or those of its lane `laneCap`:
   * it waits for its own tenant's work, and another tenant's runs behind it are taken. The first
   * run of a key holding no activity comes before every other; any other takes a slot only while
   * more than `reserve` of this process's slots would stay free.
   */
  private async claimDue(room: number): Promise<{ claimed: number; calls: Claimed[] }> {
    const now = this.clock.now();
    const started = performance.now();
    const full = started >= this.nextFullClaim;
    const answer = await rows<WorkflowRun & { freeDue: boolean }>(this.sqlOn, this.leaseStatement(room, now, full), { prepare: true });
    if (full) this.nextFullClaim = performance.now() + Math.max(FULL_CLAIM_MS, 10 * (performance.now() - started));
    const calls: Claimed[] = [];
    let claimed = 0;
    for (const { freeDue: _, ...run } of answer) {
      if (run.id === null) continue; // the one row answered when nothing was leased
      claimed++;
      const def = this.registry.get(run.process, run.processVersion);
      if (def) calls.push({ def, run, call: commandOf(run) as CallCommand });
      // This code cannot run it (a version it does not know): the run waits and says why, the attempt not counted.
      else
        await this.saveIfUnchanged(run, () => stepWithoutActivity(def, run, now, this.leaseMs), now, {
          also: { attempts: run.attempts - 1 },
        });
    }
    if (answer[0]?.freeDue) claimed += await this.stepFree(now, full);
    return { claimed, calls };
  }

  /**
   * Where a claim looks: the runs holding a lease counted by key and lane (workflow_lease, kept by
   * a trigger: as many as there are slots; only a running activity's run has one, a cancelled
   * run's until its cancel is taken, as its activity still runs), and the due runs read oldest
   * first by the wake time's index, a bounded number of them, passing over those that would start an activity (a call, not
   * leased, no cancel pending) for a key or lane already at its cap: what a claim reads does not
   * grow with the backlog, and one tenant's backlog does not hide another's runs behind it.
   */
  private dueRuns(at: Sql, full: boolean): Sql {
    const candidates = this.batchSize * CANDIDATES_PER_SLOT;
    const atCap = (r: string) => sql`(
      EXISTS (SELECT 1 FROM key_held k WHERE k.process = ${raw(r)}.process AND k.fair_key = ${raw(r)}.fair_key AND k.n >= ${this.keyCap})
      OR EXISTS (SELECT 1 FROM lane_held l WHERE l.process = ${raw(r)}.process AND l.lane = ${raw(r)}.lane AND l.n >= ${this.laneCap}))`;
    // Full: the oldest due runs not passed over, however many are passed over first. Quick: among the
    // window's oldest due runs, and the oldest due runs of each key holding activities below its cap
    // (by the key's index), so a tenant at work goes on at its pace behind another's backlog.
    /**
     * The due runs (oldest first, at most `limit`) that also meet `where`, each saying whether it
     * starts an activity. A run with a wake time has not ended (an end clears it), so the wake
     * time's own index answers in its order, whatever the statistics say of the runs' states.
     */
    const dueWhere = (where: Sql, limit: number) => sql`
      SELECT c.id, c.process, c.fair_key, c.lane, c.wake_at, ${needsSlot('c')} AS needs_slot
      FROM workflow_run c
      WHERE c.wake_at <= ${at} AND ${where}
      ORDER BY c.wake_at LIMIT ${limit}`;
    const due = full
      ? dueWhere(sql`NOT (${needsSlot('c')} AND ${atCap('c')})`, candidates)
      : sql`
        SELECT u.* FROM (
          SELECT w.* FROM (${dueWhere(sql`true`, this.batchSize * WINDOW_PER_SLOT)}) w
          UNION
          SELECT h.* FROM key_held k CROSS JOIN LATERAL (${dueWhere(sql`c.process = k.process AND c.fair_key = k.fair_key`, this.keyCap)}) h
          WHERE k.n < ${this.keyCap}) u
        WHERE NOT (u.needs_slot AND ${atCap('u')})
        ORDER BY u.wake_at LIMIT ${candidates}`;
    return sql`
      leased AS MATERIALIZED (SELECT process, fair_key, lane FROM workflow_lease WHERE until > ${at}),
      key_held AS MATERIALIZED (SELECT process, fair_key, count(*) AS n FROM leased WHERE fair_key IS NOT NULL GROUP BY 1, 2),
      lane_held AS MATERIALIZED (SELECT process, lane, count(*) AS n FROM leased WHERE lane IS NOT NULL GROUP BY 1, 2),
      due AS MATERIALIZED (${due})`;
  }

  /**
   * Leases up to `room` due runs that start an activity, in one statement, and says whether a run
   * whose step needs no slot is due (a row with no run when none was leased). Each run that starts
   * an activity is ranked among its process's runs of its key (and of its lane), the leased ones
   * counted first, and is taken only while its rank is within the cap. Rows are locked and
   * rechecked (another server may have stepped one meanwhile) one by one by their id, in rank
   * order, SKIP LOCKED, until the LIMIT (the ids drive the lookups: no plan reads the due runs
   * again, however stale the statistics). The
   * lease is short, extended by this process's heartbeat while the activity runs (its own timeout
   * ends the attempt); the attempt is counted and the revision bumped, so a result saved after the
   * lease was lost is dropped.
   */
  private leaseStatement(room: number, now: Date, full: boolean): Sql {
    const at = utc(now);
    const leaseMs = sql`LEAST(${this.leaseMs}, coalesce((r.command->>'timeoutMs')::int, ${defaultTimeoutMs}))`;
    const until = sql`${at} + ${leaseMs} * interval '1 millisecond'`;
    return sql`
      WITH ${this.dueRuns(at, full)},
      queued AS (
        SELECT d.id, d.wake_at, d.fair_key, d.lane,
          row_number() OVER (PARTITION BY d.process, d.fair_key ORDER BY d.wake_at, d.id) + coalesce(k.n, 0) AS key_n,
          row_number() OVER (PARTITION BY d.process, d.lane ORDER BY d.wake_at, d.id) + coalesce(l.n, 0) AS lane_n
        FROM due d
        LEFT JOIN key_held k ON k.process = d.process AND k.fair_key = d.fair_key
        LEFT JOIN lane_held l ON l.process = d.process AND l.lane = d.lane
        WHERE d.needs_slot
      ),
      within AS (
        SELECT q.id, q.wake_at, q.fair_key IS NOT NULL AND q.key_n = 1 AS first,
          row_number() OVER (ORDER BY q.fair_key IS NOT NULL AND q.key_n = 1 DESC, q.wake_at, q.id) AS pos
        FROM queued q
        WHERE (q.fair_key IS NULL OR q.key_n <= ${this.keyCap}) AND (q.lane IS NULL OR q.lane_n <= ${this.laneCap})
      ),
      slot AS (
        SELECT r.id FROM (SELECT w.id, w.pos FROM within w WHERE w.first OR w.pos <= ${room - this.reserve} ORDER BY w.pos) w
        CROSS JOIN LATERAL (
          SELECT r.id FROM workflow_run r WHERE r.id = w.id AND r.wake_at <= ${at} AND ${needsSlot('r')}
          FOR UPDATE OF r SKIP LOCKED) r
        LIMIT ${Math.max(room, 0)}
      ),
      taken AS (
        UPDATE workflow_run r SET lease_until = ${until}, wake_at = ${until}, attempts = r.attempts + 1, revision = r.revision + 1
        FROM slot WHERE r.id = slot.id
        RETURNING ${RUN_COLUMNS}
      )
      SELECT t.*, f.free_due AS "freeDue"
      FROM (SELECT EXISTS (SELECT 1 FROM due WHERE NOT due.needs_slot) AS free_due) f LEFT JOIN taken t ON true`;
  }

  /** The due runs whose step needs no slot (a timer's wake, a signal, a cancel), oldest first, locked: up to `batchSize`. */
  private freeStatement(now: Date, full: boolean): Sql {
    const at = utc(now);
    return sql`
      WITH ${this.dueRuns(at, full)}
      SELECT f.id FROM (SELECT d.id FROM due d WHERE NOT d.needs_slot ORDER BY d.wake_at) d
      CROSS JOIN LATERAL (
        SELECT f.id FROM workflow_run f WHERE f.id = d.id AND f.wake_at <= ${at}
        FOR UPDATE OF f SKIP LOCKED) f
      LIMIT ${this.batchSize}`;
  }

  /**
   * The statements a claim at `now` runs (the lease of runs that start an activity, and the wakes
   * and signals that need no slot), as they are sent: for EXPLAIN, so a test holds them to the
   * wake time's index however many runs wait.
   */
  claimStatements(now: Date, room = this.batchSize, full = true): { lease: Sql; free: Sql } {
    return { lease: this.leaseStatement(room, now, full), free: this.freeStatement(now, full) };
  }

  /** Takes up to `batchSize` due steps that need no slot (a timer's wake, a signal, a cancel, a lost worker's run), in one transaction. */
  private stepFree(now: Date, full: boolean): Promise<number> {
    return this.db.$transaction(async (tx) => {
      const due = await rows<{ id: string }>({ db: tx, svc: this.sqlOn }, this.freeStatement(now, full));
      if (due.length === 0) return 0;
      const runs = await tx.workflowRun.findMany({ where: { id: { in: due.map((r) => r.id) } } });
      // Rechecked: another server may have made it a call to start meanwhile; it is then left for a claim with a slot.
      const steps = runs.filter((run) => !startsActivity(run));
      for (const run of steps)
        await this.save(
          tx,
          run,
          () => stepWithoutActivity(this.registry.get(run.process, run.processVersion), run, now, this.leaseMs),
          now,
        );
      return steps.length;
    });
  }

  /**
   * Runs a leased activity under this process's heartbeat, then saves what came of it with the
   * step it leads to, unless the lease was lost meanwhile. A lost connection does not lose the
   * result: it is saved again a few times over a few seconds (the heartbeat keeps the lease).
   */
  private async perform(claimed: Claimed): Promise<void> {
    const runId = claimed.run.id;
    this.heartbeat ??= setInterval(() => void this.beat(), this.heartbeatMs).unref();
    try {
      // The run keeps its slot while each step leads straight to another activity (its key's and
      // lane's count unchanged), and gives it back at a wait, its end, a failure or a signal.
      for (let next: Claimed | undefined = claimed; next;) {
        const { def, run, call }: Claimed = next;
        this.leases.set(runId, run.revision);
        const result = await this.invoke(call).then(
          (value) => ({ ok: true as const, value }),
          (err: unknown) => ({ ok: false as const, error: messageOf(err), lost: isConnectionLost(err) }),
        );
        next = await throughCuts(
          () => this.saveResult(def, run, call, result),
          () => this.stopping,
        ).catch((err: unknown): undefined => {
          this.log.error({ err, runId }, 'durable processes: an activity result was not saved');
          return undefined;
        });
      }
    } finally {
      this.leases.delete(runId);
      if (this.leases.size === 0) {
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
      }
    }
  }

  /**
   * Saves what came of an activity with the step it leads to. Most often in one statement: the step
   * is taken from the row as it was leased, and written only if the row is still that (its
   * revision, its inbox, no cancel since); a step that starts another activity is leased to this
   * process by that statement, and answered to be run next. Else (a signal or a cancel came
   * meanwhile) in a transaction reading the row as it is now; nothing is saved when the lease was lost.
   */
  private async saveResult(
    def: AnyProcess,
    run: WorkflowRun,
    call: CallCommand,
    result: { ok: true; value: unknown } | { ok: false; error: string; lost: boolean },
  ): Promise<Claimed | undefined> {
    const step = (row: WorkflowRun, now: Date) => () =>
      result.ok
        ? advance(def, row, { kind: 'activity_completed', at: now.toISOString(), activity: call.activity, result: result.value }, now)
        : afterFailure(def, row, call, result.error, now, result.lost);
    const now = this.clock.now();
    const change = this.changeOrStuck(run, step(run, now), now);
    const next = this.leasedOn(def, run, change);
    if (next && (await this.saveIfUnchanged(run, () => next.change, now, { leased: true })))
      return { def, run: { ...run, ...next.change, revision: run.revision + 1 } as WorkflowRun, call: next.call };
    if (!next && (await this.saveIfUnchanged(run, () => change, now))) return undefined;
    await this.db.$transaction(async (tx) => {
      await rows({ db: tx, svc: this.sqlOn }, sql`SELECT 1 FROM workflow_run WHERE id = ${run.id} FOR UPDATE`);
      const current = await tx.workflowRun.findUnique({ where: { id: run.id } });
      if (!current || current.revision !== run.revision) return;
      const at = this.clock.now();
      await this.save(tx, current, step(current, at), at);
    });
  }

  /**
   * The change with the activity it starts kept under the lease the run holds (extended by this
   * process's heartbeat as before), the attempt counted: none when the change starts none, or this
   * process is closing or cannot run it. The run's key and lane hold as many activities as before.
   * Its lease and wake time are left as they are, so no index of the row changes and the update
   * stays on its page (a heap-only tuple): the run's steps in a row add nothing to its indexes.
   */
  private leasedOn(def: AnyProcess, run: WorkflowRun, change: RunChange): { change: RunChange; call: CallCommand } | undefined {
    const command = change.command as unknown as Command | undefined;
    if (this.stopping || change.status !== 'active' || command?.kind !== 'call' || cancelPending(run)) return undefined;
    if (!this.activities[command.activity] || this.registry.get(run.process, run.processVersion) !== def) return undefined;
    const { wakeAt: _due, leaseUntil: _unleased, ...rest } = change;
    return { change: { ...rest, attempts: 1 }, call: command };
  }

  /** Saves a step taken from `run` as it was read, in one statement, only if the row is still that: whether it was. */
  private async saveIfUnchanged(
    run: WorkflowRun,
    change: () => RunChange,
    now: Date,
    { also = {}, leased = false }: { also?: RunChange; leased?: boolean } = {},
  ): Promise<boolean> {
    // A step kept under the run's lease is saved only while the lease holds (else it is saved as any step, without it).
    const held = leased ? sql`AND lease_until > ${utc(now)}` : sql``;
    const saved = await exec(
      this.sqlOn,
      sql`
      UPDATE workflow_run SET ${setsOf({ ...this.changeOrStuck(run, change, now), ...also })}
      WHERE id = ${run.id} AND revision = ${run.revision} AND inbox = ${JSON.stringify(run.inbox ?? [])}::jsonb
        AND cancel_requested_at IS NOT DISTINCT FROM ${run.cancelRequestedAt}::timestamp(3) ${held}`,
      { prepare: true },
    );
    return saved === 1;
  }

  /**
   * Extends the leases of every activity this process runs, in one statement: rows another
   * statement holds (a result being saved) are passed over rather than waited for, and a lease that
   * ran out or was taken by another process (its revision moved on) is not revived.
   */
  private async beat(): Promise<void> {
    if (this.leases.size === 0 || this.beating) return;
    this.beating = true;
    const now = this.clock.now();
    const until = utc(new Date(now.getTime() + this.leaseMs));
    const ids = [...this.leases.keys()];
    const revisions = ids.map((id) => this.leases.get(id)!);
    await exec(
      this.sqlOn,
      sql`
      UPDATE workflow_run SET lease_until = ${until}, wake_at = ${until}
      WHERE id IN (
        SELECT w.id FROM workflow_run w
        JOIN unnest(${ids}::text[], ${revisions}::int[]) AS h(id, revision) ON h.id = w.id AND h.revision = w.revision
        WHERE w.lease_until > ${utc(now)}
        FOR UPDATE OF w SKIP LOCKED)`,
    )
      .catch((err: unknown) => this.log.warn({ err, runs: ids.length }, 'durable processes: a heartbeat failed'))
      .finally(() => (this.beating = false));
  }

  private async invoke(call: CallCommand): Promise<unknown> {
    const activity = this.activities[call.activity];
    if (!activity) throw new Error(`no activity is named ${call.activity}`);
    const ms = timeoutOf(call);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${call.activity} did not finish within ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([activity(call.input as never), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Saves a step (in the claim's transaction). */
  private async save(tx: Tx, run: WorkflowRun, change: () => RunChange, now: Date): Promise<void> {
    await exec(
      { db: tx, svc: this.sqlOn },
      sql`UPDATE workflow_run SET ${setsOf(this.changeOrStuck(run, change, now))} WHERE id = ${run.id}`,
    );
  }

  /** A step's change. A step that cannot be taken here is what a failed Temporal workflow task is:
   *  the run stays as it was, says why, and is tried again later (by fixed code, perhaps). */
  private changeOrStuck(run: WorkflowRun, change: () => RunChange, now: Date): RunChange {
    try {
      return change();
    } catch (err) {
      this.log.error({ err, runId: run.id, process: run.process }, 'durable processes: a step could not be taken');
      return { lastError: messageOf(err), leaseUntil: null, wakeAt: new Date(now.getTime() + STUCK_RETRY_MS) };
    }
  }
}

/** A run whose step is to start an activity, not yet leased and with no cancel pending: it takes a slot. */
const needsSlot = (r: string) =>
  sql`(${raw(r)}.status = 'active' AND ${raw(r)}.command->>'kind' = 'call' AND ${raw(r)}.lease_until IS NULL
        AND (${raw(r)}.cancel_requested_at IS NULL OR ${raw(r)}.cancel_delivered_at IS NOT NULL))`;
const startsActivity = (run: WorkflowRun) =>
  run.status === 'active' && commandOf(run).kind === 'call' && !run.leaseUntil && !cancelPending(run);

/** A run's row as Prisma's model reads it, from raw SQL through pg (timestamps as Date, JSON parsed). */
const RUN_COLUMNS = raw(
  [
    'id',
    'process',
    'process_version AS "processVersion"',
    'status',
    'state',
    'command',
    'wake_at AS "wakeAt"',
    'lease_until AS "leaseUntil"',
    'inbox',
    'attempts',
    'last_error AS "lastError"',
    'revision',
    'cancel_requested_at AS "cancelRequestedAt"',
    'cancel_delivered_at AS "cancelDeliveredAt"',
    'started_at AS "startedAt"',
    'ended_at AS "endedAt"',
    'outcome',
    'fair_key AS "fairKey"',
    'lane',
  ]
    .map((c) => `r.${c}`)
    .join(', '),
);
