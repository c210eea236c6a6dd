import { z } from 'zod';
import { CHANNELS } from '../../src/domain/preferences/channels.js';
import { MAX_CHOICES, MAX_WORDING } from '../../src/domain/preferences/change.js';
import { getGuestPreferences, putGuestPreferences } from '../../src/domain/preferences/guest.js';
import type { Preferences as Kept } from '../../src/domain/preferences/read.js';
import { defineRoute } from '../http/route.js';

// The user's topic and channel preferences: every topic of the app with the channels it goes by,
// whether the user chose to hear of it by each (or the default holds) and whether they do now; and
// changing them, with the words the user was shown kept as proof.

const TAG = 'Preferences';
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

const present = (p: Kept): z.output<typeof PreferencesAnswer> => ({
  all_off: p.allOff,
  topics: p.topics.map(({ topic, channels }) => ({
    topic: topic.key,
    name: topic.name,
    description: topic.description,
    offers: topic.offers,
    channels: channels.map((c) => ({ channel: c.channel, subscribed: c.subscribed, hears: c.hears, needs_consent: c.needsConsent })),
  })),
});

export const getPreferences = defineRoute({
  method: 'get',
  path: '/guest/v1/preferences',
  surface: 'guest',
  tag: TAG,
  summary: "The app's topics, the channels each goes by, and whether the user hears of each by each channel",
  responses: { 200: { description: 'Preferences', schema: PreferencesAnswer } },
  errors: [400, 401, 403, 429],
  async handle(ctx) {
    return { status: 200, body: present(await getGuestPreferences(ctx.state.context)) };
  },
});

export const putPreferences = defineRoute({
  method: 'put',
  path: '/guest/v1/preferences',
  surface: 'guest',
  tag: TAG,
  summary: 'The user turns topics on or off by channel, or everything off; answers the preferences as they now are',
  body: PreferencesBody,
  responses: { 200: { description: 'Preferences', schema: PreferencesAnswer } },
  errors: [400, 401, 403, 429],
  async handle(ctx, { body }) {
    const change = { allOff: body.all_off, choices: body.choices, wording: body.wording };
    return { status: 200, body: present(await putGuestPreferences(ctx.state.context, change)) };
  },
});

export const preferenceRoutes = [getPreferences, putPreferences];
