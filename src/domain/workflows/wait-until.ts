import { localTime, minuteOf, type SendingWindow } from '../inapp/schedule.js';

// When a `wait_until` step's wait ends: the next time the person's clock reads HH:MM (their
// contact's time zone, else UTC), always after now (at 09:00 sharp, the next day's 09:00). On a
// day the zone's clocks change, a time that does not exist that day (skipped forward) is taken
// an hour later, as the zone's clocks read then.

const MINUTE = 60_000;

export function nextTimeOfDay(now: Date, time: string, zone: string | null): Date {
  const target = minuteOf(time);
  const local = localTime(now, zone);
  const seconds = now.getTime() % MINUTE;
  let ahead = (target - local.minute + 1440) % 1440;
  if (ahead === 0) ahead = 1440;
  let at = new Date(now.getTime() - seconds + ahead * MINUTE);
  // Across a change of the zone's offset, the clock there reads an hour off: move by the difference once.
  const drift = localTime(at, zone).minute - target;
  if (drift !== 0) {
    const fixed = new Date(at.getTime() - (((drift + 720 + 1440) % 1440) - 720) * MINUTE);
    if (fixed.getTime() > now.getTime()) at = fixed;
  }
  return at;
}

/** When a sending window next opens, after now: the next time the person's clock reads its `from` on one of its days. */
export function nextOpening(now: Date, window: SendingWindow, zone: string | null): Date {
  let at = now;
  for (let i = 0; i < 8; i++) {
    at = nextTimeOfDay(at, window.from, zone);
    if (window.days.includes(localTime(at, zone).day)) break;
  }
  return at;
}
