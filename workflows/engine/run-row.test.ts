import { describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { setsOf } from './run-row.js';

describe('setsOf', () => {
  it('writes each column a change names, JSON as jsonb, the status as its enum, and bumps the revision', () => {
    const at = new Date('2026-11-28T10:00:00.000Z');
    const sets = setsOf({ status: 'ended', state: { n: 1 }, wakeAt: null, attempts: 0, endedAt: at, outcome: Prisma.JsonNull });
    expect(sets.text).toBe(
      'status = $1::"WorkflowRunStatus", state = $2::jsonb, wake_at = $3, attempts = $4, ended_at = $5, outcome = $6::jsonb, revision = revision + 1',
    );
    expect(sets.values).toEqual(['ended', '{"n":1}', null, 0, at, 'null']);
  });

  it('leaves out what a change does not name', () => {
    expect(setsOf({ lastError: 'x', leaseUntil: undefined }).text).toBe('last_error = $1, revision = revision + 1');
  });
});
