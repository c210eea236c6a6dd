import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { pingActivities } from './activities.js';

describe('ping activities, in a mock Temporal activity context', () => {
  const clock = new ManualClock(new Date('2026-01-01T00:00:00.000Z'));
  const activities = pingActivities({ clock });

  it('sends a ping at the clock it was given', async () => {
    const sent = await new MockActivityEnvironment().run(activities.sendPing, { to: 'ops', reminder: false });
    expect(sent).toEqual({ to: 'ops', reminder: false, sentAt: '2026-01-01T00:00:00.000Z' });
  });

  it('records a pong, and doing it twice answers the same (both engines may run it twice)', async () => {
    const env = new MockActivityEnvironment();
    const first = await env.run(activities.recordPong, { to: 'ops', pong: 'hi' });
    const again = await env.run(activities.recordPong, { to: 'ops', pong: 'hi' });
    expect(again).toEqual(first);
  });
});
