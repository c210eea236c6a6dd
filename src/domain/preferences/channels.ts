import type { PreferenceChannel } from '../../generated/prisma/client.js';

// The ways a topic reaches a person. Consent to offers (src/domain/contacts/consent.ts) exists for
// email and push; in-app has none, so an offers topic in-app needs only the person's choice.

export type Channel = PreferenceChannel;

/** In the order they are shown. */
export const CHANNELS = ['email', 'push', 'in_app'] as const satisfies readonly Channel[];

export const isChannel = (word: string): word is Channel => (CHANNELS as readonly string[]).includes(word);

/** The channels in their shown order, each once. */
export const inChannelOrder = (channels: readonly Channel[]): Channel[] => CHANNELS.filter((c) => channels.includes(c));
