import { exec, sql } from '../../db/sql.js';
import { transaction, type Ctx } from '../context.js';
import { changePreferences, type PreferencesChange } from '../preferences/change.js';
import { preferencesOf, type Preferences, type TopicPreference } from '../preferences/read.js';
import { noSuchEmail, sentEmailOf, type SentEmail } from './sends.js';
import { emailToken, emailTokenKey } from './tokens.js';

// The person leaves an email's topic by email (its unsubscribe link: the RFC 8058 one-click POST,
// or the page's confirm), reads what the unsubscribe page shows, and reads and changes their
// preferences on the preference centre, each by the email's own token. Leaving one topic never
// turns the person off everything: everything off is their choice on the preference centre, and no
// choice there suppresses the address. A test copy names no person: it shows the page and changes
// nothing. Every change is the person's own (`source: email`), kept with the words they were shown.

export type Wording = string;

/** What the unsubscribe page shows (GET /public/v1/email/lists/{token}). */
export interface EmailLists {
  /** The email's topic; null when it was archived since (it reaches no one). */
  topic: TopicPreference | null;
  /** Whether the email's topic still reaches them by email. */
  subscribed: boolean;
  /** The address the email went to, masked (`a•••@example.com`). */
  address: string;
  /** Every topic by email, the email's own among them, with their choice. */
  preferences: Preferences;
  /** A test copy: nothing a page does with it changes anyone's preferences. */
  test: boolean;
}

/** What a page of the email shows beside its data: whose brand, in which language, and the preference centre's token. */
export interface EmailPage {
  brand: SentEmail['brand'];
  language: string | null;
  /** The address, masked. */
  address: string;
  test: boolean;
  /** The same email's preference centre token (the unsubscribe page links the preference centre). */
  preferencesToken: string;
}

const pageOf = (ctx: Ctx, email: SentEmail): EmailPage => ({
  brand: email.brand,
  language: email.language,
  address: maskAddress(email.address),
  test: email.test,
  preferencesToken: emailToken(emailTokenKey(ctx.svc), { sendId: email.id, purpose: 'preferences', link: 0 }),
});

/** `ada@example.com` as `a•••@example.com`: enough for the person to know it is theirs, not enough to read it off a shared screen. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${address.slice(0, 1)}•••${address.slice(at)}`;
}

async function emailOf(ctx: Ctx, token: string, purpose: 'unsubscribe' | 'preferences'): Promise<SentEmail> {
  const found = await sentEmailOf(ctx, token, purpose);
  if (!found || (purpose === 'unsubscribe' && !found.email.topicId)) throw noSuchEmail();
  return found.email;
}

const byEmail = (preferences: Preferences): Preferences => ({
  allOff: preferences.allOff,
  topics: preferences.topics
    .map((t) => ({ ...t, channels: t.channels.filter((c) => c.channel === 'email') }))
    .filter((t) => t.channels.length > 0),
});

async function listsOf(ctx: Ctx, email: SentEmail): Promise<EmailLists> {
  const preferences = byEmail(await preferencesOf(ctx, email.appModeId, email.contactId));
  const topic = preferences.topics.find((t) => t.topic.id === email.topicId) ?? null;
  return {
    topic,
    subscribed: topic?.channels[0]?.subscribed ?? false,
    address: maskAddress(email.address),
    preferences,
    test: email.test,
  };
}

/** The unsubscribe page's data. */
export async function emailLists(ctx: Ctx, token: string): Promise<EmailLists> {
  return listsOf(ctx, await emailOf(ctx, token, 'unsubscribe'));
}

/** The unsubscribe page: its data, and what the page shows beside it. */
export async function unsubscribePage(ctx: Ctx, token: string): Promise<{ lists: EmailLists; page: EmailPage }> {
  const email = await emailOf(ctx, token, 'unsubscribe');
  return { lists: await listsOf(ctx, email), page: pageOf(ctx, email) };
}

/** The preference centre page: the person's preferences, and what the page shows beside them. */
export async function preferenceCentre(ctx: Ctx, token: string): Promise<{ preferences: Preferences; page: EmailPage }> {
  const email = await emailOf(ctx, token, 'preferences');
  return { preferences: await preferencesOf(ctx, email.appModeId, email.contactId), page: pageOf(ctx, email) };
}

/** The person leaves the email's topic by email; answers the page's data as it now is. Again, it changes nothing more. */
export async function leaveEmailTopic(ctx: Ctx, token: string, wording: Wording): Promise<EmailLists> {
  const email = await emailOf(ctx, token, 'unsubscribe');
  if (email.test || !email.contactId) return listsOf(ctx, email);
  return transaction(ctx, async (tx) => {
    const lists = await listsOf(tx, email);
    if (lists.topic && lists.subscribed) {
      const person = { id: email.contactId!, appModeId: email.appModeId, externalId: email.externalId! };
      await changePreferences(
        tx,
        person,
        { choices: [{ topic: lists.topic.topic.key, channel: 'email', subscribed: false }], wording },
        'email',
      );
    }
    await exec(tx, sql`UPDATE email_send SET unsubscribed_at = coalesce(unsubscribed_at, ${tx.clock.now()}) WHERE id = ${email.id}::uuid`);
    return listsOf(tx, email);
  });
}

/** The preference centre's data: the person's preferences, every channel, as the app shows them (GET /public/v1/preferences/{token}). */
export async function emailPreferences(ctx: Ctx, token: string): Promise<Preferences> {
  const email = await emailOf(ctx, token, 'preferences');
  return preferencesOf(ctx, email.appModeId, email.contactId);
}

/** The person changes their preferences on the preference centre; answers them as they now are. */
export async function changeEmailPreferences(ctx: Ctx, token: string, change: PreferencesChange): Promise<Preferences> {
  const email = await emailOf(ctx, token, 'preferences');
  if (email.test || !email.contactId) return preferencesOf(ctx, email.appModeId, email.contactId);
  return transaction(ctx, async (tx) => {
    await changePreferences(tx, { id: email.contactId!, appModeId: email.appModeId, externalId: email.externalId! }, change, 'email');
    return preferencesOf(tx, email.appModeId, email.contactId);
  });
}
