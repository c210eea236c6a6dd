// How long a conversation may be snoozed for, as the s key and the command menu offer it.

export interface Snooze {
  id: string;
  label: string;
  until(): Date;
}

const at9Tomorrow = () => {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  d.setHours(9, 0, 0, 0);
  return d;
};

const nextMonday9 = () => {
  const d = at9Tomorrow();
  while (d.getDay() !== 1) d.setDate(d.getDate() + 1);
  return d;
};

export const SNOOZES: Snooze[] = [
  { id: 'hour', label: 'For an hour', until: () => new Date(Date.now() + 3600_000) },
  { id: 'four-hours', label: 'For four hours', until: () => new Date(Date.now() + 4 * 3600_000) },
  { id: 'tomorrow', label: 'Until tomorrow 9:00', until: at9Tomorrow },
  { id: 'monday', label: 'Until Monday 9:00', until: nextMonday9 },
  { id: 'week', label: 'For a week', until: () => new Date(Date.now() + 7 * 86400_000) },
];
