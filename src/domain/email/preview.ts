import { one, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { signedDownloads } from '../downloads/signed-address.js';
import { notFound } from '../errors.js';
import { UNSUBSCRIBE_PAGE, PREFERENCES_PAGE } from './addresses.js';
import { peopleSql } from './batch.js';
import { fromOf } from './compose.js';
import { personalise } from './render.js';
import { renderedNow } from './sending.js';

// An email as it would be mailed now, for staff to look at before they send it: the message as saved,
// rendered by the renderer a sending uses (renderedNow: the same MJML document, the same text part,
// the same refusal of a topic that no longer goes by email), and personalised as the sender
// personalises each person's email, with stand-ins for what only a sent email has: each tracked link
// leads where it was written (where a click on the person's would lead), the open pixel is an inline
// transparent picture (a preview fetches nothing and counts nothing), and the unsubscribe and
// preference centre's links are the pages' addresses with `preview` for the person's token. For a
// person of the email's app-mode (a contact of another is not found), it says where it would go and
// whether a sending now would skip them, and why; without one, it goes to a sample address.
//
// The HTML is also given as a page of this service (`address`): a signed, short-lived address of the
// public route `GET /public/v1/email-previews/{token}` (src/domain/downloads/signed-address.ts, under a
// key of its own), answered with a policy of its own: the email's inline styles and https pictures,
// no script, sandboxed, framed only by this service's pages. The staff console frames it: a frame
// written from the page's own text would take the console's policy, which allows no inline style.

/** What a preview's `to` is without a person. */
export const SAMPLE_TO = 'someone@example.com';
/** Stands for the person's token in a preview's unsubscribe and preference centre's addresses. */
export const PREVIEW_TOKEN = 'preview';
/** A 1x1 transparent GIF, inline: the preview's open pixel. */
const NO_PIXEL = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

export const EMAIL_PREVIEW_PATH = '/public/v1/email-previews/';
export const EMAIL_PREVIEW_SECONDS = 300;

const previews = signedDownloads({
  name: 'email-preview',
  path: EMAIL_PREVIEW_PATH,
  seconds: EMAIL_PREVIEW_SECONDS,
  contentType: 'text/html',
});

export interface EmailPreview {
  subject: string;
  preheader: string;
  html: string;
  text: string;
  /** The From a sending writes. */
  from: string;
  replyTo: string | null;
  /** The person's address (null: they have none, so no sending reaches them), or SAMPLE_TO without a person. */
  to: string | null;
  /** Why a sending now would skip the person (suppressed, topic_closed, all_off, unsubscribed, no_consent); null: it would go (or no person). */
  skipped: string | null;
  /** The HTML as a page of this service, good for EMAIL_PREVIEW_SECONDS: the email as saved when it is opened. */
  address: { url: string; expiresAt: Date };
}

/** The email's subject, preheader, HTML and text as a sending would mail them now, with the preview's stand-ins. */
async function previewed(ctx: Ctx, messageId: string) {
  const { message, rendered } = await renderedNow(ctx, messageId);
  const base = ctx.svc.config.baseUrl;
  const body = personalise(rendered, {
    links: rendered.links,
    open: NO_PIXEL,
    ...(message.topicId
      ? { unsubscribe: `${base}${UNSUBSCRIBE_PAGE}/${PREVIEW_TOKEN}`, preferences: `${base}${PREFERENCES_PAGE}/${PREVIEW_TOKEN}` }
      : {}),
  });
  return { message, ...body };
}

/** The email as a sending would mail it now, to a person of its app-mode (`contactId`) or to a sample address. */
export async function previewEmail(ctx: Ctx, messageId: string, contactId?: string | null): Promise<EmailPreview> {
  const { message, html, text } = await previewed(ctx, messageId);
  let to: string | null = SAMPLE_TO;
  let skipped: string | null = null;
  if (contactId != null) {
    const contact = await ctx.db.contact.findFirst({
      where: { id: contactId, appModeId: message.appModeId, eraseRequestedAt: null },
      select: { id: true, email: true },
    });
    if (!contact) throw notFound('No such contact.');
    to = contact.email;
    if (to !== null)
      skipped =
        (await one<{ skip: string | null }>(ctx, peopleSql(message.appModeId, message.topicId, sql`k.id = ${contact.id}`)))?.skip ?? null;
  }
  return {
    subject: message.subject,
    preheader: message.preheader,
    html,
    text,
    from: fromOf(message, ctx.svc.mail.from),
    replyTo: message.replyTo,
    to,
    skipped,
    address: previews.address(ctx, message.appModeId, message.id),
  };
}

/** The HTML of the email a preview address names, as saved now: 403 for an address altered, forged or expired; 404 once the email is gone. */
export async function previewPage(ctx: Ctx, token: string): Promise<{ appModeId: string; html: string }> {
  const terms = previews.open(ctx, token);
  const found = await ctx.db.emailMessage.findFirst({ where: { id: terms.id, appModeId: terms.appModeId }, select: { id: true } });
  if (!found) throw notFound('No such email.');
  return { appModeId: terms.appModeId, html: (await previewed(ctx, found.id)).html };
}
