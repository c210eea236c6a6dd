// When a message may be answered: its schedule (start, stop), and its sending window (days and
// hours) and quiet hours in the person's own time zone: the check-in's `time_zone`, else the
// contact's, else UTC. Times of day are "HH:MM"; a window holds from `from` up to (not including)
// `to`; quiet hours may wrap midnight (22:00 to 07:00).

export interface SendingWindow {
  /** Days of the week, Sunday 0 to Saturday 6. */
  days: number[];
  from: string;
  to: string;
}

export interface QuietHours {
  from: string;
  to: string;
}

/** The person's local day of the week, minute of the day and date. */
export interface LocalTime {
  day: number;
  minute: number;
  date: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    if (formats.size > 1000) formats.clear();
    formats.set(zone, format);
  }
  return format;
}

/** Whether a zone name is one the runtime knows (IANA). */
export function isTimeZone(zone: string): boolean {
  try {
    formatOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** Zones change their offset from UTC only at instants that are whole quarters of an hour. */
const QUARTER_MS = 900_000;
/** A zone's offset from UTC in ms, by zone and quarter hour (the few a process meets at once). */
const offsets = new Map<string, number>();

/** A zone's offset from UTC at an instant: read from Intl once per zone and quarter hour. */
function offsetOf(at: Date, zone: string): number {
  const key = `${zone} ${Math.floor(at.getTime() / QUARTER_MS)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const p = Object.fromEntries(
      formatOf(zone)
        .formatToParts(at)
        .map((x) => [x.type, x.value]),
    );
    const minute = Math.floor(at.getTime() / 60_000) * 60_000;
    offset = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)) - minute;
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

/** An instant as it reads in a zone (UTC when the zone is unknown). */
export function localTime(at: Date, zone: string | null | undefined): LocalTime {
  const local = new Date(at.getTime() + (zone && zone !== 'UTC' && isTimeZone(zone) ? offsetOf(at, zone) : 0));
  return { day: local.getUTCDay(), minute: local.getUTCHours() * 60 + local.getUTCMinutes(), date: local.toISOString().slice(0, 10) };
}

export const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
export const isClock = (s: unknown): s is string => typeof s === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(s);

export function inWindow(window: SendingWindow | null, quiet: QuietHours | null, local: LocalTime): boolean {
  if (window && (!window.days.includes(local.day) || local.minute < minuteOf(window.from) || local.minute >= minuteOf(window.to)))
    return false;
  if (quiet) {
    const from = minuteOf(quiet.from);
    const to = minuteOf(quiet.to);
    const quietNow = from <= to ? local.minute >= from && local.minute < to : local.minute >= from || local.minute < to;
    if (quietNow) return false;
  }
  return true;
}

/** What is wrong with a sending window, by member (`days`, `from`, `to`): the one rule for messages' and workflows' windows. */
export function windowProblems(w: { days: unknown; from: unknown; to: unknown }): { member: string; message: string }[] {
  const problems: { member: string; message: string }[] = [];
  if (!Array.isArray(w.days) || !w.days.length || w.days.length > 7 || w.days.some((d) => !Number.isInteger(d) || d < 0 || d > 6))
    problems.push({ member: 'days', message: 'must list days of the week, Sunday 0 to Saturday 6' });
  if (!isClock(w.from)) problems.push({ member: 'from', message: 'must be a time of day, HH:MM' });
  if (!isClock(w.to) && w.to !== '24:00')
    problems.push({ member: 'to', message: 'must be a time of day, HH:MM (24:00 for the end of the day)' });
  else if (isClock(w.from) && minuteOf(w.to as string) <= minuteOf(w.from)) problems.push({ member: 'to', message: 'must be after from' });
  return problems;
}

/** A window as kept: each day once, in order. */
export const windowOf = (w: SendingWindow): SendingWindow => ({ days: [...new Set(w.days)].sort(), from: w.from, to: w.to });

export const inSchedule = (m: { startAt: Date | null; stopAt: Date | null }, now: Date) =>
  (!m.startAt || m.startAt.getTime() <= now.getTime()) && (!m.stopAt || now.getTime() < m.stopAt.getTime());
