import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import client from 'prom-client';
import type { Logger } from '../lib/logger.js';

// Request ids, one log line per request, and Prometheus metrics.

export function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
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
    help: 'Answers to live subscribers: made (the event executed once for a group) or shared (that answer handed to one more subscriber of the group)',
    labelNames: ['how'] as const,
    registers: [registry],
  });
  return { registry, requests, duration, liveAnswers };
}
export type Metrics = ReturnType<typeof createMetrics>;

const surfaceOf = (path: string) => /^\/(guest|server|public)\/v1\//.exec(path)?.[1] ?? (path.startsWith('/graphql') ? 'graphql' : 'other');

export function observe(log: Logger, metrics: Metrics): Koa.Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = log.child({ request_id: requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The route template, never the raw path: paths of email links carry signed tokens.
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      const surface = surfaceOf(ctx.path);
      metrics.requests.inc({ surface, route, method: ctx.method, status: String(ctx.status) });
      metrics.duration.observe({ surface, route, method: ctx.method }, seconds);
      ctx.state.log.info({ method: ctx.method, route, status: ctx.status, ms: Math.round(seconds * 1000) }, 'request');
    }
  };
}
