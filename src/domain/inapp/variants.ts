import { createHash } from 'node:crypto';
import { CONTROL } from './message-input.js';

// A person's variant of a message: drawn by weight from a hash of the message and the person, so
// every process draws the same, and kept in their receipt from the first time they qualify, so
// they keep it whatever staff change later. The control group is one more share, never shown.

export function drawVariant(
  m: { id: string; variants: { key: string; weight: number }[]; controlWeight: number },
  externalId: string,
): string {
  const total = m.variants.reduce((sum, v) => sum + v.weight, 0) + m.controlWeight;
  let point = (createHash('sha256').update(`${m.id}\u0000${externalId}`).digest().readUInt32BE(0) / 2 ** 32) * total;
  for (const v of m.variants) {
    if (point < v.weight) return v.key;
    point -= v.weight;
  }
  return CONTROL;
}
