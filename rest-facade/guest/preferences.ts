import { getGuestPreferences, putGuestPreferences } from '../../src/domain/preferences/guest.js';
import { defineRoute } from '../http/route.js';
import { presentPreferences } from '../presenters/preferences.js';
import { PreferencesAnswer, PreferencesBody } from './preferences.schemas.js';

// The user's topic and channel preferences: every topic of the app with the channels it goes by,
// whether the user chose to hear of it by each (or the default holds) and whether they do now; and
// changing them, with the words the user was shown kept as proof.

const TAG = 'Preferences';
export const getPreferences = defineRoute({
  method: 'get',
  path: '/guest/v1/preferences',
  surface: 'guest',
  tag: TAG,
  summary: "The app's topics, the channels each goes by, and whether the user hears of each by each channel",
  responses: { 200: { description: 'Preferences', schema: PreferencesAnswer } },
  errors: [400, 401, 403, 429],
  async handle(ctx) {
    return { status: 200, body: presentPreferences(await getGuestPreferences(ctx.state.context)) };
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
    return { status: 200, body: presentPreferences(await putGuestPreferences(ctx.state.context, change)) };
  },
});

export const preferenceRoutes = [getPreferences, putPreferences];
