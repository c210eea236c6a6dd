import { describe, expect, it } from 'vitest';
import { addMs, awaitsSignal, backoffMs, retryPolicyOf, runStateOf } from './commands.js';
import { ProcessRegistry } from './registry.js';
import { registerActivities } from './activities.js';
import { ping } from '../../test/fixtures/ping/decide.js';

describe('commands as both engines read them', () => {
  it('names the run state a command leaves the run in', () => {
    expect(runStateOf({ kind: 'call', activity: 'a', input: null })).toBe('active');
    expect(runStateOf({ kind: 'wait', until: '2026-01-01T00:00:00.000Z' })).toBe('waiting');
    expect(runStateOf({ kind: 'wait', until: '2026-01-01T00:00:00.000Z', signals: ['s'] })).toBe('waiting');
    expect(runStateOf({ kind: 'wait', signals: ['s'] })).toBe('parked');
    expect(runStateOf({ kind: 'end', outcome: null })).toBe('ended');
  });

  it('backs off exponentially up to the cap, as Temporal does', () => {
    const policy = retryPolicyOf({
      kind: 'call',
      activity: 'a',
      input: null,
      retry: { initialIntervalMs: 100, backoffCoefficient: 3, maxIntervalMs: 1_000 },
    });
    expect([1, 2, 3, 4].map((n) => backoffMs(policy, n))).toEqual([100, 300, 900, 1_000]);
    expect(policy.maxAttempts).toBe(5);
  });

  it('matches signals by name and adds time to instants', () => {
    expect(awaitsSignal({ kind: 'wait', signals: ['pong'] }, 'pong')).toBe(true);
    expect(awaitsSignal({ kind: 'wait', until: '2026-01-01T00:00:00.000Z' }, 'pong')).toBe(false);
    expect(addMs('2026-01-01T00:00:00.000Z', 1_500)).toBe('2026-01-01T00:00:01.500Z');
  });
});

describe('registries', () => {
  it('starts new runs on the latest version and keeps the older ones for runs begun on them', () => {
    const registry = new ProcessRegistry([{ ...ping, version: 2 }, ping]);
    expect(registry.latest('ping').version).toBe(2);
    expect(registry.get('ping', 1)).toBe(ping);
    expect(registry.get('ping', 3)).toBeUndefined();
    expect(() => registry.latest('nope')).toThrow(/no durable process is named 'nope'/);
    expect(() => new ProcessRegistry([ping, ping])).toThrow(/twice/);
  });

  it('refuses two activities of one name', () => {
    const a = { sendPing: async () => 1 };
    expect(() => registerActivities(a, a)).toThrow(/sendPing is registered twice/);
  });
});
