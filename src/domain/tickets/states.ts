import type { Prisma } from '../../generated/prisma/client.js';
import { invalid, type FieldError } from '../errors.js';

// A ticket type's states: the ordered list staff define (submitted → in progress → waiting on you
// → resolved). Each has a key (what the API, the outbox and the history name), a label (what the
// person sees) and whether it ends the ticket. A new ticket starts in the first state; staff may
// move it to any other, back as well as on.

export interface TicketState {
  key: string;
  label: string;
  final: boolean;
}

export const MAX_STATES = 20;
export const MAX_STATE_LABEL = 60;
const KEY = /^[a-z][a-z0-9_]{0,39}$/;

/** The list as kept (the type's `states` column). */
export const statesOf = (type: { states: Prisma.JsonValue }): TicketState[] => type.states as unknown as TicketState[];

/** The state of a type by key, or undefined. */
export const stateIn = (type: { states: Prisma.JsonValue }, key: string): TicketState | undefined =>
  statesOf(type).find((s) => s.key === key);

/**
 * Checks a list as staff sent it, naming each bad member (`states`, `states.<i>.key`,
 * `states.<i>.label`): not empty, at most MAX_STATES, keys unique, labels unique and not blank.
 */
export function checkStates(states: TicketState[], field = 'states'): TicketState[] {
  if (!states.length) throw invalid([{ field, message: 'must list at least one state' }]);
  if (states.length > MAX_STATES) throw invalid([{ field, message: `must list at most ${MAX_STATES} states` }]);
  const errors: FieldError[] = [];
  const keys = new Set<string>();
  const labels = new Set<string>();
  const checked = states.map((s, i) => {
    const label = s.label.trim();
    if (!KEY.test(s.key))
      errors.push({ field: `${field}.${i}.key`, message: 'must be 1 to 40 lowercase letters, digits or _, starting with a letter' });
    else if (keys.has(s.key)) errors.push({ field: `${field}.${i}.key`, message: `repeats the key ${s.key}` });
    if (!label || label.length > MAX_STATE_LABEL)
      errors.push({ field: `${field}.${i}.label`, message: `must be 1 to ${MAX_STATE_LABEL} characters` });
    else if (labels.has(label.toLowerCase())) errors.push({ field: `${field}.${i}.label`, message: `repeats the label ${label}` });
    keys.add(s.key);
    labels.add(label.toLowerCase());
    return { key: s.key, label, final: s.final };
  });
  if (errors.length) throw invalid(errors);
  return checked;
}
