import { describe, expect, it } from 'vitest';
import { nextTimeOfDay } from './wait-until.js';

describe("a wait until a time of day in the person's zone", () => {
  it('ends at the next such time, today if it is still ahead, else tomorrow, and never now', () => {
    expect(nextTimeOfDay(new Date('2026-03-02T07:15:30Z'), '09:00', null).toISOString()).toBe('2026-03-02T09:00:00.000Z');
    expect(nextTimeOfDay(new Date('2026-03-02T10:00:00Z'), '09:00', 'UTC').toISOString()).toBe('2026-03-03T09:00:00.000Z');
    expect(nextTimeOfDay(new Date('2026-03-02T09:00:00Z'), '09:00', null).toISOString()).toBe('2026-03-03T09:00:00.000Z');
  });

  it("reads the clock in the person's own zone", () => {
    // Tokyo is UTC+9: 09:00 there is 00:00 UTC.
    expect(nextTimeOfDay(new Date('2026-03-02T01:00:00Z'), '09:00', 'Asia/Tokyo').toISOString()).toBe('2026-03-03T00:00:00.000Z');
    // New York in winter is UTC-5.
    expect(nextTimeOfDay(new Date('2026-01-10T12:00:00Z'), '09:00', 'America/New_York').toISOString()).toBe('2026-01-10T14:00:00.000Z');
  });

  it('keeps the clock time across a change of the zone’s offset', () => {
    // New York moves to UTC-4 on 2026-03-08 at 02:00: the 09:00 after a Saturday noon is Sunday 13:00 UTC.
    expect(nextTimeOfDay(new Date('2026-03-07T17:00:00Z'), '09:00', 'America/New_York').toISOString()).toBe('2026-03-08T13:00:00.000Z');
    // And back on 2026-11-01: Sunday's 09:00 is 14:00 UTC.
    expect(nextTimeOfDay(new Date('2026-10-31T17:00:00Z'), '09:00', 'America/New_York').toISOString()).toBe('2026-11-01T14:00:00.000Z');
  });

  it('treats an unknown zone as UTC', () => {
    expect(nextTimeOfDay(new Date('2026-03-02T07:00:00Z'), '08:30', 'Not/AZone').toISOString()).toBe('2026-03-02T08:30:00.000Z');
  });
});
