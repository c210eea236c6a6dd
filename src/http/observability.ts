import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type pino from 'pino';
import client from 'prom-client';
import { outboxBacklog, openRuns, type ConsumerBacklog } from '../domain/backlog.js';
import { systemContext, type Services } from '../domain/context.js';
import type { Logger } from '../lib/logger.js';
import { processCounters } from '../lib/process-metrics.js';

// Request ids, one log line per request, and Prometheus metrics.

/** What the gauges read on each scrape; the server sets what it has (the staff API's WebSocket connections). */
export interface MetricSources {
  liveConnections?: () => number;
}

/**
 * The registry /metrics serves. With `svc`, the gauges an operator alerts on, read on each scrape:
 * outbox backlog per consumer, durable runs not ended by process and status, the database pool,
 * and live connections; beside them this process's webhook and push counters and Node's own
 * (event-loop delay as nodejs_eventloop_lag_*, heap, CPU). No label ever names an app or a person.
 */
export function createMetrics(svc?: Services) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const sources: MetricSources = {};
  for (const counter of processCounters) registry.registerMetric(counter);
  if (svc) {
    const ctx = systemContext(svc, 'metrics');
    // The pool first: registered before the gauges that query, it is read before this scrape's own
    // statements wait for a connection, so it never counts the scrape itself.
    const pool = (name: string, help: string, read: () => number) =>
      new client.Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    pool(
      'crm_db_pool_connections',
      "Connections the database pool holds (in use and idle), up to DATABASE_POOL's size",
      () => svc.pool.totalCount,
    );
    pool('crm_db_pool_idle', 'Connections of the pool idle now', () => svc.pool.idleCount);
    pool(
      'crm_db_pool_waiting',
      'Queries waiting for a connection of the pool now: above 0 for long, the pool is too small or held',
      () => svc.pool.waitingCount,
    );
    pool(
      'crm_db_search_pool_connections',
      'Connections the help-search pool holds (in use and idle): opened only as public searches need them',
      () => svc.caches.helpSearches.pool.totalCount,
    );
    pool(
      'crm_db_search_pool_waiting',
      'Help searches waiting for a connection of their pool now (each waits at most 2 s, then 503)',
      () => svc.caches.helpSearches.pool.waitingCount,
    );
    // Both outbox gauges of one scrape share one read of the backlog (collected together, they find it under way).
    let reading: Promise<ConsumerBacklog[]> | undefined;
    const readBacklog = () =>
      (reading ??= outboxBacklog(ctx)
        .catch((): ConsumerBacklog[] => [])
        .finally(() => (reading = undefined)));
    new client.Gauge({
      name: 'crm_outbox_backlog_rows',
      help: 'Outbox rows committed and not yet handed to each consumer (processes to start, webhook delivery)',
      labelNames: ['consumer'] as const,
      registers: [registry],
      async collect() {
        const backlog = await readBacklog();
        this.reset();
        for (const b of backlog) this.set({ consumer: b.consumer }, b.rows);
      },
    });
    new client.Gauge({
      name: 'crm_outbox_lag_seconds',
      help: 'Age of the oldest outbox row each consumer has not yet been handed (0 when it is caught up)',
      labelNames: ['consumer'] as const,
      registers: [registry],
      async collect() {
        const backlog = await readBacklog();
        this.reset();
        for (const b of backlog) this.set({ consumer: b.consumer }, b.seconds);
      },
    });
    new client.Gauge({
      name: 'crm_durable_runs',
      help: 'Durable runs of the embedded engine not yet ended, by process and status (active, waiting, parked: parked needs a person)',
      labelNames: ['process', 'status'] as const,
      registers: [registry],
      async collect() {
        const runs = await openRuns(ctx).catch(() => []);
        this.reset();
        for (const r of runs) this.set({ process: r.process, status: r.status }, r.runs);
      },
    });
    new client.Gauge({
      name: 'crm_live_connections',
      help: 'WebSocket connections of the staff GraphQL API (live subscriptions) open now',
      registers: [registry],
      collect() {
        this.set(sources.liveConnections?.() ?? 0);
      },
    });
  }
  const requests = new client.Counter({
    name: 'crm_http_requests_total',
    help: 'HTTP requests by surface, route, method and status',
    labelNames: ['surface', 'route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'crm_http_request_duration_seconds',
    help: 'HTTP request duration by surface and route',
    labelNames: ['surface', 'route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const liveAnswers = new client.Counter({
    name: 'crm_live_answers_total',
    help: 'Answers to live subscribers: made (the event executed once for a group), serialized (that answer turned into the text sent, once for the group) or shared (that answer handed to one more subscriber of the group)',
    labelNames: ['how'] as const,
    registers: [registry],
  });
  return { registry, requests, duration, liveAnswers, sources };
}
export type Metrics = ReturnType<typeof createMetrics>;

/**
 * A request's logger: a child of the server's with the request id and what the access steps bind
 * (app_mode, sdk), made when something is first written to it. Most requests write nothing below
 * the server's level and so make no child logger; a line written is the same as the child's.
 */
export class RequestLog {
  private logger: Logger | undefined;
  private readonly bound: pino.Bindings[] = [];
  constructor(
    private readonly parent: Logger,
    private readonly requestId: string,
  ) {}

  /** As pino's setBindings: added after the bindings already given. */
  setBindings(bindings: pino.Bindings): void {
    if (this.logger) this.logger.setBindings(bindings);
    else this.bound.push(bindings);
  }

  info(o: object, m: string): void {
    if (this.logger || this.parent.isLevelEnabled('info')) this.child().info(o, m);
  }
  warn(o: object, m: string): void {
    if (this.logger || this.parent.isLevelEnabled('warn')) this.child().warn(o, m);
  }
  error(o: object, m: string): void {
    if (this.logger || this.parent.isLevelEnabled('error')) this.child().error(o, m);
  }

  private child(): Logger {
    if (!this.logger) {
      this.logger = this.parent.child({ request_id: this.requestId });
      for (const bindings of this.bound) this.logger.setBindings(bindings);
    }
    return this.logger;
  }
}

const surfaceOf = (path: string) => /^\/(guest|server|public)\/v1\//.exec(path)?.[1] ?? (path.startsWith('/graphql') ? 'graphql' : 'other');

export function observe(log: Logger, metrics: Metrics): Koa.Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = new RequestLog(log, requestId);
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    const record = () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The route template, never the raw path: paths of email links carry signed tokens.
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      const surface = surfaceOf(ctx.path);
      metrics.requests.inc({ surface, route, method: ctx.method, status: String(ctx.status) });
      metrics.duration.observe({ surface, route, method: ctx.method }, seconds);
      ctx.state.log.info({ method: ctx.method, route, status: ctx.status, ms: Math.round(seconds * 1000) }, 'request');
    };
    try {
      await next();
    } finally {
      // An answer written later (a held long poll: rest-facade/http/route.ts) is counted when it has gone.
      // ('close' comes once: `on` spares the wrapper `once` adds.)
      if (ctx.respond === false && !ctx.res.writableEnded && !ctx.req.socket.destroyed) ctx.res.on('close', record);
      else record();
    }
  };
}
