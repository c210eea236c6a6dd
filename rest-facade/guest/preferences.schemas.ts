import { z } from 'zod';
import { CHANNELS } from '../../src/domain/preferences/channels.js';
import { MAX_CHOICES, MAX_WORDING } from '../../src/domain/preferences/change.js';

// The person's topic and channel preferences on the wire.

const Channel = z.enum(CHANNELS).describe('email, push or in_app');

const ChannelPreference = z
  .object({
    channel: Channel,
    subscribed: z.boolean().describe("The user's own choice, or the topic's default when they never chose"),
    hears: z
      .boolean()
      .describe(
        'Whether a message of the topic reaches the user by this channel now: subscribed, all_off false, and for an offers topic by email or push their consent to offers by it',
      ),
    needs_consent: z
      .boolean()
      .describe(
        'An offers topic by email or push that the user has not agreed to offers by (PUT /consent): subscribed alone does not let it reach them',
      ),
  })
  .meta({ id: 'ChannelPreference' });

const TopicPreference = z
  .object({
    topic: z.string().describe("The topic's key: what a PreferenceChoice names"),
    name: z.string(),
    description: z.string(),
    offers: z.boolean().describe("Offers (marketing): by email or push it also needs the user's consent to offers"),
    channels: z.array(ChannelPreference).describe('Each channel the topic goes by, in the order email, push, in_app'),
  })
  .meta({ id: 'TopicPreference' });

export const PreferencesAnswer = z
  .object({
    all_off: z.boolean().describe('The user turned everything off: they hear of no topic by any channel, in-app included'),
    topics: z.array(TopicPreference).describe("The app's topics, oldest first; empty when the app defines none"),
  })
  .meta({ id: 'Preferences' });

const PreferenceChoice = z
  .object({
    topic: z
      .string()
      .min(1)
      .max(64)
      .describe("A topic's key, from GET /preferences; an unknown one is refused naming choices.<index>.topic"),
    channel: Channel.describe('A channel the topic goes by; another is refused naming choices.<index>.channel'),
    subscribed: z.boolean().describe('true to hear of the topic by the channel, false to stop'),
  })
  .meta({ id: 'PreferenceChoice' });

export const PreferencesBody = z
  .object({
    all_off: z
      .boolean()
      .optional()
      .describe('true turns everything off, false turns it back on (each topic as chosen); left out, unchanged'),
    choices: z
      .array(PreferenceChoice)
      .max(MAX_CHOICES)
      .optional()
      .describe(`At most ${MAX_CHOICES}; each topic and channel at most once. Choices left out are unchanged`),
    wording: z
      .string()
      .max(MAX_WORDING)
      .optional()
      .describe(`The text the user was shown when they chose, at most ${MAX_WORDING} characters: kept with each change as its proof`),
  })
  .meta({ id: 'PreferencesBody' });
