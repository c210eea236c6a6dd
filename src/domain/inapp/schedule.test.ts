import { describe, expect, it } from 'vitest';
import { inSchedule, inWindow, isClock, isTimeZone, localTime, minuteOf, type LocalTime } from './schedule.js';

// When a message may be answered, without a server: the person's local time in their zone, the
// sending window (days, from inclusive, to exclusive) and quiet hours (wrapping midnight), and the
// schedule (start inclusive, stop exclusive). The check-in test shows the same over HTTP once.

const at = (iso: string) => new Date(iso);
const clock = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
/** A Wednesday (day 3) at a time of day. */
const wednesday = (hhmm: string): LocalTime => ({ day: 3, minute: minuteOf(hhmm), date: '2026-11-25' });

describe('time zones', () => {
  it('knows IANA zones and UTC, and nothing else', () => {
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('Europe/Pari')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});

describe('local time', () => {
  it('reads an instant as UTC when the zone is UTC, missing or unknown', () => {
    const instant = at('2026-11-25T13:45:30.000Z'); // a Wednesday
    const utc = { day: 3, minute: 13 * 60 + 45, date: '2026-11-25' };
    expect(localTime(instant, 'UTC')).toEqual(utc);
    expect(localTime(instant, null)).toEqual(utc);
    expect(localTime(instant, undefined)).toEqual(utc);
    expect(localTime(instant, '')).toEqual(utc);
    expect(localTime(instant, 'Nowhere/At_All')).toEqual(utc);
  });

  it('moves the day of the week and the date with the zone, forwards and backwards', () => {
    // Sunday 1 March 2026, 23:30 UTC: already Monday in Tokyo, still Sunday afternoon in Pago Pago.
    const instant = at('2026-03-01T23:30:00Z');
    expect(localTime(instant, 'UTC')).toEqual({ day: 0, minute: 23 * 60 + 30, date: '2026-03-01' });
    expect(localTime(instant, 'Asia/Tokyo')).toEqual({ day: 1, minute: 8 * 60 + 30, date: '2026-03-02' });
    expect(localTime(instant, 'Pacific/Pago_Pago')).toEqual({ day: 0, minute: 12 * 60 + 30, date: '2026-03-01' });
    // New Year's Eve in New York is already New Year's Day in UTC.
    expect(localTime(at('2027-01-01T03:00:00Z'), 'America/New_York')).toEqual({ day: 4, minute: 22 * 60, date: '2026-12-31' });
  });

  it('keeps the zones whose offsets are not whole hours', () => {
    const instant = at('2026-06-10T00:00:00Z');
    expect(localTime(instant, 'Asia/Kolkata').minute).toBe(5 * 60 + 30);
    expect(localTime(instant, 'Asia/Kathmandu').minute).toBe(5 * 60 + 45);
    expect(localTime(instant, 'America/St_Johns').minute).toBe(24 * 60 - 2 * 60 - 30);
  });

  it('follows daylight saving time: the offset of the instant, not of the zone in general', () => {
    expect(localTime(at('2026-01-15T12:00:00Z'), 'America/New_York').minute).toBe(7 * 60);
    expect(localTime(at('2026-07-15T12:00:00Z'), 'America/New_York').minute).toBe(8 * 60);
    expect(localTime(at('2026-01-15T12:00:00Z'), 'Australia/Sydney').minute).toBe(23 * 60);
    expect(localTime(at('2026-07-15T12:00:00Z'), 'Australia/Sydney').minute).toBe(22 * 60);
    // New York springs forward on 8 March 2026 at 07:00 UTC: 01:59 EST, then 03:00 EDT a minute later.
    expect(localTime(at('2026-03-08T06:59:00Z'), 'America/New_York').minute).toBe(60 + 59);
    expect(localTime(at('2026-03-08T07:00:00Z'), 'America/New_York').minute).toBe(3 * 60);
    // Lord Howe moves by half an hour (+10:30 to +11:00) at 02:00 on 5 October 2025, 15:30 UTC the day before.
    expect(localTime(at('2025-10-04T15:29:00Z'), 'Australia/Lord_Howe').minute).toBe(1 * 60 + 59);
    expect(localTime(at('2025-10-04T15:30:00Z'), 'Australia/Lord_Howe').minute).toBe(2 * 60 + 30);
  });

  it('reads the minute the instant is in, seconds and milliseconds dropped, the same when asked again', () => {
    const instant = at('2026-11-25T08:14:59.999Z');
    expect(localTime(instant, 'Europe/Paris')).toEqual({ day: 3, minute: 9 * 60 + 14, date: '2026-11-25' });
    expect(localTime(instant, 'Europe/Paris')).toEqual(localTime(new Date(instant.getTime()), 'Europe/Paris'));
    // Every minute of a day in one zone, one after the other.
    const start = at('2026-11-24T23:00:00Z').getTime(); // midnight in Paris
    for (let m = 0; m < 24 * 60; m += 7) expect(localTime(new Date(start + m * 60_000 + 30_000), 'Europe/Paris').minute).toBe(m);
  });
});

describe('times of day', () => {
  it('reads HH:MM as the minute of the day', () => {
    expect(minuteOf('00:00')).toBe(0);
    expect(minuteOf('09:30')).toBe(570);
    expect(minuteOf('23:59')).toBe(1439);
    expect(minuteOf('24:00')).toBe(1440);
    for (let m = 0; m < 1440; m += 13) expect(minuteOf(clock(m))).toBe(m);
  });

  it('takes two digits for the hour (00 to 23) and two for the minute (00 to 59), nothing more', () => {
    for (const ok of ['00:00', '09:05', '12:00', '19:59', '23:59']) expect(isClock(ok), ok).toBe(true);
    for (const bad of ['24:00', '9:00', '09:5', '12:60', '25:00', '12:00:00', ' 12:00', '12.00', '1200', '', 'ab:cd'])
      expect(isClock(bad), bad).toBe(false);
    for (const notText of [null, undefined, 900, { from: '09:00' }]) expect(isClock(notText)).toBe(false);
  });
});

describe('the sending window and quiet hours', () => {
  const workdays = { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' };

  it('holds at any time when neither is set', () => {
    for (const time of ['00:00', '12:00', '23:59']) expect(inWindow(null, null, wednesday(time))).toBe(true);
  });

  it('holds from `from` up to, not including, `to`, on the days it lists only', () => {
    expect(inWindow(workdays, null, wednesday('08:59'))).toBe(false);
    expect(inWindow(workdays, null, wednesday('09:00'))).toBe(true);
    expect(inWindow(workdays, null, wednesday('16:59'))).toBe(true);
    expect(inWindow(workdays, null, wednesday('17:00'))).toBe(false);
    const noon = minuteOf('12:00');
    expect(inWindow(workdays, null, { day: 0, minute: noon, date: '2026-11-22' })).toBe(false); // Sunday
    expect(inWindow(workdays, null, { day: 6, minute: noon, date: '2026-11-28' })).toBe(false); // Saturday
    for (const day of [1, 2, 3, 4, 5]) expect(inWindow(workdays, null, { day, minute: noon, date: '2026-11-25' })).toBe(true);
  });

  it('runs to the end of the day when `to` is 24:00', () => {
    const evenings = { days: [3], from: '18:00', to: '24:00' };
    expect(inWindow(evenings, null, wednesday('23:59'))).toBe(true);
    expect(inWindow(evenings, null, wednesday('00:00'))).toBe(false);
    expect(inWindow(evenings, null, wednesday('17:59'))).toBe(false);
  });

  it('keeps quiet from `from` up to, not including, `to`', () => {
    const lunch = { from: '12:00', to: '13:00' };
    expect(inWindow(null, lunch, wednesday('11:59'))).toBe(true);
    expect(inWindow(null, lunch, wednesday('12:00'))).toBe(false);
    expect(inWindow(null, lunch, wednesday('12:59'))).toBe(false);
    expect(inWindow(null, lunch, wednesday('13:00'))).toBe(true);
  });

  it('keeps quiet hours that wrap midnight: late evening and early morning, not the day between', () => {
    const night = { from: '22:00', to: '07:00' };
    for (const time of ['22:00', '23:59', '00:00', '03:00', '06:59']) expect(inWindow(null, night, wednesday(time)), time).toBe(false);
    for (const time of ['07:00', '12:00', '21:59']) expect(inWindow(null, night, wednesday(time)), time).toBe(true);
  });

  it('takes quiet hours that start and end at the same time as never quiet', () => {
    const none = { from: '08:00', to: '08:00' };
    for (const time of ['07:59', '08:00', '08:01', '20:00']) expect(inWindow(null, none, wednesday(time))).toBe(true);
  });

  it('needs both: inside the window and outside the quiet hours', () => {
    const lunch = { from: '12:00', to: '13:00' };
    expect(inWindow(workdays, lunch, wednesday('10:00'))).toBe(true);
    expect(inWindow(workdays, lunch, wednesday('12:30'))).toBe(false);
    expect(inWindow(workdays, lunch, wednesday('18:00'))).toBe(false);
    expect(inWindow(workdays, lunch, { day: 0, minute: minuteOf('10:00'), date: '2026-11-22' })).toBe(false);
  });

  it('is read in the person’s own zone: the same instant is inside for one and outside for another', () => {
    const instant = at('2026-11-25T09:30:00Z'); // Wednesday: 10:30 in Paris, 04:30 in New York, 18:30 in Tokyo
    const lunch = { from: '12:00', to: '13:00' };
    expect(inWindow(workdays, lunch, localTime(instant, 'Europe/Paris'))).toBe(true);
    expect(inWindow(workdays, lunch, localTime(instant, 'America/New_York'))).toBe(false);
    expect(inWindow(workdays, lunch, localTime(instant, 'Asia/Tokyo'))).toBe(false);
    expect(inWindow(workdays, lunch, localTime(at('2026-11-25T03:30:00Z'), 'Asia/Tokyo'))).toBe(false); // 12:30 there
  });
});

describe('the schedule', () => {
  const now = at('2026-11-25T12:00:00Z');
  const ms = (d: number) => new Date(now.getTime() + d);

  it('holds with no start and no stop', () => {
    expect(inSchedule({ startAt: null, stopAt: null }, now)).toBe(true);
  });

  it('starts at its start, not a millisecond before', () => {
    expect(inSchedule({ startAt: ms(1), stopAt: null }, now)).toBe(false);
    expect(inSchedule({ startAt: ms(0), stopAt: null }, now)).toBe(true);
    expect(inSchedule({ startAt: ms(-1), stopAt: null }, now)).toBe(true);
  });

  it('stops at its stop: the stop itself is outside', () => {
    expect(inSchedule({ startAt: null, stopAt: ms(1) }, now)).toBe(true);
    expect(inSchedule({ startAt: null, stopAt: ms(0) }, now)).toBe(false);
    expect(inSchedule({ startAt: null, stopAt: ms(-1) }, now)).toBe(false);
  });

  it('needs both when both are set', () => {
    const hour = 3_600_000;
    expect(inSchedule({ startAt: ms(-hour), stopAt: ms(hour) }, now)).toBe(true);
    expect(inSchedule({ startAt: ms(hour), stopAt: ms(2 * hour) }, now)).toBe(false);
    expect(inSchedule({ startAt: ms(-2 * hour), stopAt: ms(-hour) }, now)).toBe(false);
  });
});
