import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.js';
import { RequestLog } from './observability.js';

// A request's logger is made only when something is written to it; a line written is the child's.

function sink() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, stream };
}

describe('RequestLog', () => {
  it('writes the request id and the bindings given, in order, as a child logger would', () => {
    const { lines, stream } = sink();
    const log = new RequestLog(createLogger('info', stream), 'req-1');
    log.setBindings({ app_mode: 'm1', sdk: 'web/1' });
    log.info({ status: 200 }, 'request');
    log.setBindings({ later: true });
    log.error({ status: 500 }, 'request failed');
    expect(lines.map((l) => [l.request_id, l.app_mode, l.sdk, l.later, l.status, l.msg])).toEqual([
      ['req-1', 'm1', 'web/1', undefined, 200, 'request'],
      ['req-1', 'm1', 'web/1', true, 500, 'request failed'],
    ]);
    expect(Object.keys(lines[0]!).slice(-5)).toEqual(['request_id', 'app_mode', 'sdk', 'status', 'msg']);
  });

  it('makes no child logger for a request that writes nothing at the level the server logs', () => {
    const { lines, stream } = sink();
    const parent = createLogger('warn', stream);
    let children = 0;
    const child = parent.child.bind(parent);
    parent.child = ((...args: Parameters<typeof parent.child>) => (children++, child(...args))) as typeof parent.child;
    const log = new RequestLog(parent, 'req-2');
    log.setBindings({ app_mode: 'm1' });
    log.info({ status: 200 }, 'request');
    expect(children).toBe(0);
    log.warn({ status: 503 }, 'request failed');
    expect(children).toBe(1);
    expect(lines).toMatchObject([{ level: 40, request_id: 'req-2', app_mode: 'm1', status: 503 }]);
  });
});
