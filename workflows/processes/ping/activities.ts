import type { Clock } from '../../../src/lib/clock.js';

// The ping's side effects stand for real ones (a message sent, a reply stored). They depend on
// nothing but a clock and change nothing, so running one twice is harmless, as it must be.

export interface PingDeps {
  clock: Clock;
}

export const pingActivities = ({ clock }: PingDeps) => ({
  async sendPing(input: { to: string; reminder: boolean }): Promise<{ to: string; reminder: boolean; sentAt: string }> {
    return { ...input, sentAt: clock.now().toISOString() };
  },
  async recordPong(input: { to: string; pong: unknown }): Promise<{ to: string; recordedAt: string }> {
    return { to: input.to, recordedAt: clock.now().toISOString() };
  },
});
