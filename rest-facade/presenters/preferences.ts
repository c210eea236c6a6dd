import type { z } from 'zod';
import type { Preferences as Kept } from '../../src/domain/preferences/read.js';
import type { PreferencesAnswer } from '../guest/preferences.schemas.js';

export const presentPreferences = (p: Kept): z.output<typeof PreferencesAnswer> => ({
  all_off: p.allOff,
  topics: p.topics.map(({ topic, channels }) => ({
    topic: topic.key,
    name: topic.name,
    description: topic.description,
    offers: topic.offers,
    channels: channels.map((c) => ({ channel: c.channel, subscribed: c.subscribed, hears: c.hears, needs_consent: c.needsConsent })),
  })),
});
