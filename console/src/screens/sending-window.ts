// A sending window as the console's editors hold it: days of the week (Sunday 0) and hours, in the
// person's own time zone (sending-window-fields.tsx draws its fields).

export interface WindowValue {
  days: number[];
  from: string;
  to: string;
}

export const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
export const WORKING_HOURS: WindowValue = { days: [1, 2, 3, 4, 5], from: '09:00', to: '18:00' };
