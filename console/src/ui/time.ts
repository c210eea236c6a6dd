// Times as a person reads them: the hour today, the day otherwise.

const hour = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const day = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function when(iso: string): string {
  const d = new Date(iso);
  return d.toDateString() === new Date().toDateString() ? hour.format(d) : day.format(d);
}

export const fullTime = (iso: string) => full.format(new Date(iso));
