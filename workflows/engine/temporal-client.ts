import { Client, Connection, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { Config } from '../../src/config.js';
import type { Clock } from '../../src/lib/clock.js';
import { clockSignal, runViewQuery, type DurableArgs } from '../temporal/definitions.js';
import { RunNotFoundError } from './errors.js';
import type { ProcessRegistry } from './registry.js';
import type { AnyProcess, DurableEngine, ProcessRef, RunDescription, StartInput } from './types.js';

// The engine interface on a Temporal server: a run is a workflow whose id is the run id and whose
// type is the process's name. Workers (npm run worker) execute them; this side only asks.

export class TemporalEngine<Def extends AnyProcess = AnyProcess> implements DurableEngine<Def> {
  private readonly connection: Connection;
  private readonly client: Client;
  private readonly taskQueue: string;

  /**
   * Connects on first use, so a server starts even while Temporal is briefly away. With a clock (the
   * tests', which they move), the runs it starts keep that clock's time rather than the server's:
   * their timers fire when tell() says the time has come (DurableArgs.clock).
   */
  constructor(
    config: Pick<Config, 'temporalAddress' | 'temporalNamespace' | 'temporalTaskQueue'>,
    private readonly registry: ProcessRegistry<Def>,
    private readonly clock?: Clock,
  ) {
    this.taskQueue = config.temporalTaskQueue;
    this.connection = Connection.lazy({ address: config.temporalAddress });
    this.client = new Client({ connection: this.connection, namespace: config.temporalNamespace });
  }

  async start<Name extends Def['name']>(process: ProcessRef<Name>, runId: string, input: StartInput<Def, Name>): Promise<string> {
    const { name, version } = this.registry.latest(process);
    const args: DurableArgs = this.clock ? { version, input, clock: this.clock.now().toISOString() } : { version, input };
    try {
      // REJECT_DUPLICATE: a run id names one run for good, ended or not, as on the embedded engine.
      await this.client.workflow.start(name, {
        taskQueue: this.taskQueue,
        workflowId: runId,
        args: [args],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    return runId;
  }

  async signal(runId: string, name: string, payload: unknown = null): Promise<void> {
    try {
      await this.client.workflow.getHandle(runId).signal(name, payload);
    } catch (err) {
      throw err instanceof WorkflowNotFoundError ? new RunNotFoundError(runId) : err;
    }
  }

  async cancel(runId: string): Promise<void> {
    try {
      await this.client.workflow.getHandle(runId).cancel();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      // Temporal says "not found" of a closed workflow too; cancelling an ended run is no error.
      if (!(await this.describe(runId))) throw new RunNotFoundError(runId);
    }
  }

  /** A running workflow answers the query only while a worker is up. */
  async describe(runId: string): Promise<RunDescription | null> {
    const handle = this.client.workflow.getHandle(runId);
    const found = await handle.describe().catch((err: unknown) => {
      if (err instanceof WorkflowNotFoundError) return null;
      throw err;
    });
    if (!found) return null;
    const pending = found.raw.pendingActivities?.[0];
    const common = {
      runId,
      process: found.type,
      startedAt: found.startTime,
      endedAt: found.closeTime ?? null,
      attempts: pending?.attempt ?? 0,
      lastError: pending?.lastFailure?.message ?? null,
    };
    if (found.status.name === 'RUNNING') {
      const view = await handle.query(runViewQuery);
      return { ...common, state: view.state, wakeAt: view.wakeAt === null ? null : new Date(view.wakeAt), outcome: null };
    }
    const completed = found.status.name === 'COMPLETED';
    return {
      ...common,
      state: 'ended',
      wakeAt: null,
      outcome: completed ? await handle.result() : null,
      lastError: completed ? null : `the workflow ${found.status.name.toLowerCase()}`,
    };
  }

  /** For runs started on a clock: tells the run the clock's time now, so the timers it has due fire. False when the run is not running. */
  async tell(runId: string): Promise<boolean> {
    if (!this.clock) throw new Error('tell() is for an engine given a clock');
    try {
      await this.client.workflow.getHandle(runId).signal(clockSignal, this.clock.now().toISOString());
      return true;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  }

  /**
   * Whether the run has something in hand or due now: a workflow task to take, or an activity
   * scheduled, running or waiting out its retry's pause. An ended run, or one waiting for a time or
   * a signal, has not. Null when there is no such run.
   */
  async busy(runId: string): Promise<{ busy: boolean; ended: boolean; historyLength: number } | null> {
    const found = await this.client.workflow
      .getHandle(runId)
      .describe()
      .catch((err: unknown) => {
        if (err instanceof WorkflowNotFoundError) return null;
        throw err;
      });
    if (!found) return null;
    const { historyLength } = found;
    if (found.status.name !== 'RUNNING') return { busy: false, ended: true, historyLength };
    return { busy: Boolean(found.raw.pendingWorkflowTask) || (found.raw.pendingActivities?.length ?? 0) > 0, ended: false, historyLength };
  }

  /** How many runs of the process have the id: 0 or 1, since a run id names one run for good. */
  async count(process: ProcessRef, runId: string): Promise<number> {
    const name = typeof process === 'string' ? process : process.name;
    const { count } = await this.client.workflow.count(`WorkflowId = '${runId.replace(/'/g, '')}' AND WorkflowType = '${name}'`);
    return count;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
