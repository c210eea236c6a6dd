import { describe, expect, it } from 'vitest';
import { nextOpening, nextTimeOfDay } from './wait-until.js';

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

describe("when a send step's window next opens, on the person's clock", () => {
  const weekdays = { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' };
  it('opens later the same day, or on the next of its days', () => {
    // 2026-03-02 is a Monday.
    expect(nextOpening(new Date('2026-03-02T07:00:00Z'), weekdays, null).toISOString()).toBe('2026-03-02T09:00:00.000Z');
    expect(nextOpening(new Date('2026-03-02T18:00:00Z'), weekdays, null).toISOString()).toBe('2026-03-03T09:00:00.000Z');
    // Friday evening waits for Monday.
    expect(nextOpening(new Date('2026-03-06T18:00:00Z'), weekdays, null).toISOString()).toBe('2026-03-09T09:00:00.000Z');
    expect(nextOpening(new Date('2026-03-07T10:00:00Z'), { days: [0], from: '10:00', to: '11:00' }, null).toISOString()).toBe(
      '2026-03-08T10:00:00.000Z',
    );
  });

  it("reads the person's own zone and day", () => {
    // Monday 23:00 UTC is already Tuesday 08:00 in Tokyo: the window opens an hour later.
    expect(nextOpening(new Date('2026-03-02T23:00:00Z'), weekdays, 'Asia/Tokyo').toISOString()).toBe('2026-03-03T00:00:00.000Z');
    // Saturday 08:00 in Tokyo (Friday 23:00 UTC) waits for Monday 09:00 there.
    expect(nextOpening(new Date('2026-03-06T23:00:00Z'), weekdays, 'Asia/Tokyo').toISOString()).toBe('2026-03-09T00:00:00.000Z');
  });
});
