// The consent rule, pure. With `changed_at` the newer choice wins, so a stale copy never
// re-enables someone who has since said no. Without it, a "no" is always taken and a "yes" is
// ignored when the person last said no.

export interface ChannelConsent {
  value: boolean | null;
  changedAt: Date | null;
}

export interface ConsentChoice {
  value: boolean;
  changedAt?: Date;
}

/** The channel's new state, or null when the choice changes nothing. */
export function applyConsentChoice(current: ChannelConsent, choice: ConsentChoice, now: Date): { value: boolean; changedAt: Date } | null {
  if (choice.changedAt) {
    const stale = current.changedAt !== null && choice.changedAt < current.changedAt;
    // At the same instant, a "no" wins over a "yes".
    const tie = current.changedAt !== null && choice.changedAt.getTime() === current.changedAt.getTime() && current.value === false;
    if (stale || tie) return null;
    if (current.value === choice.value && current.changedAt?.getTime() === choice.changedAt.getTime()) return null;
    return { value: choice.value, changedAt: choice.changedAt };
  }
  if (choice.value && current.value === false) return null;
  if (current.value === choice.value) return null;
  return { value: choice.value, changedAt: now };
}
