import { z } from 'zod';
import { PreferencesAnswer } from '../guest/preferences.schemas.js';

// The email link routes on the wire: the token in the path, the unsubscribe page's data, and the
// preference centre's answer (the guest preferences' shape under the spec's name).

export const EmailTokenParams = z.object({
  token: z.string().min(1).max(200).describe('The signed token the service wrote into one email (43 characters); any other opens nothing'),
});

export const UnsubscribeQuery = z.object({
  source: z
    .string()
    .max(40)
    .optional()
    .describe(
      "`page`: the unsubscribe page's confirm, answered 303 back to the page; anything else or none: the one-click POST of RFC 8058 (body `List-Unsubscribe=One-Click`), answered 200",
    ),
});

const EmailTopic = z
  .object({
    topic: z.string().describe("The topic's key"),
    name: z.string(),
    description: z.string(),
    subscribed: z.boolean().describe('Whether the person hears of it by email (their choice, or the default)'),
  })
  .meta({ id: 'EmailTopic' });

export const EmailLists = z
  .object({
    topic: EmailTopic.nullable().describe("The email's topic; null when it was archived since (it reaches no one)"),
    subscribed: z.boolean().describe("Whether the email's topic still reaches the person by email"),
    address: z.string().describe('The address the email went to, masked (`a•••@example.com`)'),
    all_off: z.boolean().describe('The person turned everything off (on the preference centre or in the app)'),
    topics: z.array(EmailTopic).describe("Every topic that goes by email, the email's own among them, oldest first"),
    test: z.boolean().describe("A test copy to a team member: nothing done with it changes anyone's preferences"),
  })
  .meta({ id: 'EmailLists' });

export const PublicPreferences = PreferencesAnswer.meta({ id: 'PublicPreferences' });
