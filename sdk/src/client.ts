import createFetchClient from 'openapi-fetch';
import { browserLanguage } from './browser.js';
import { CheckinSchedule, DEFAULT_CHECKIN_SECONDS } from './checkin.js';
import { EventQueue, type BatchOutcome, type GuestEvent } from './events.js';
import type { components, paths } from './generated/guest-api.js';
import { GuestApiError, must } from './errors.js';
import { pageLife, type PageLife } from './page.js';
import { ReceiptLedger, type ReceiptAction, type ReceiptDetails, type ReceiptMessage } from './receipts.js';
import { TokenKeeper, type TokenSource } from './token.js';
import { guestFetch } from './transport.js';
import { SDK_VERSION } from './version.js';
import { watchConversation } from './watch.js';

type Schemas = components['schemas'];
export type Checkin = Schemas['Checkin'];
export type Part = Schemas['Part'];
export type StartBody = Schemas['StartBody'];
export type MessageBody = Schemas['MessageBody'];
export type RatingBody = Schemas['RatingBody'];
export type Preferences = Schemas['Preferences'];
export type PreferencesBody = Schemas['PreferencesBody'];
export type Consent = Schemas['Consent'];
export type ConsentBody = Schemas['ConsentBody'];
export type SupportTicket = Schemas['SupportTicket'];
export type DeviceBody = Schemas['DeviceBody'];
type PictureType = Schemas['AttachmentBody']['content_type'];

export interface ClientOptions {
  /** The service's address, such as `https://crm.example.com`. */
  baseUrl: string;
  /** The app's public key (`app_…`, or `app_test_…` for the test app). */
  appKey: string;
  /** The user's token from the customer's own route (verified sign-in): fetched once, kept while it lasts. */
  token?: TokenSource;
  /** The user's id, for an app with unverified sign-in (instead of `token`). */
  userId?: string;
  /** The user's language (BCP 47), sent as `Accept-Language`; the browser's when left out. */
  language?: string;
  /** The website's version, sent with check-ins and events. */
  appVersion?: string;
  /** The named screen on view, sent with check-ins (messages meant for some screens wait for theirs). */
  screen?: () => string | undefined;
  /** Each check-in's answer (its in-app messages, unread counts). */
  onCheckin?: (answer: Checkin) => void;
  /** Who made the requests, after the SDK's own name in `X-Crm-Sdk` (such as `messenger/1.0.0`). */
  sdkName?: string;
  fetch?: (request: Request) => Promise<Response>;
}

/** A page hidden at least this long starts a new session when it comes back (one large message a session). */
const SESSION_GAP_MS = 30 * 60_000;

/**
 * A client of the guest API for one signed-in user. It checks in at once (the sign-in), again when the page
 * comes to the front and after events are sent, never sooner than the answer allows; it batches events and
 * sends what is held when the page is hidden. `api` reaches every guest route with the document's types.
 */
export function createClient(options: ClientOptions) {
  if (!options.token === (options.userId === undefined))
    throw new TypeError('Give exactly one of token (a function giving the user’s token) and userId.');
  const tokens = options.token ? new TokenKeeper(options.token) : undefined;
  const sdk = `crm-web/${SDK_VERSION}${options.sdkName ? ` ${options.sdkName}` : ''}`;
  const language = options.language ?? browserLanguage();
  const send = guestFetch({ appKey: options.appKey, token: tokens, userId: options.userId, sdk, language, fetch: options.fetch });
  const api = createFetchClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: send });
  const appVersion = options.appVersion ?? 'web';
  let sessionId: string = crypto.randomUUID();

  const checkins = new CheckinSchedule(async () => {
    const { data, error, response } = await api.POST('/guest/v1/checkin', {
      body: {
        app_version: appVersion,
        platform: 'web',
        session_id: sessionId,
        screen: options.screen?.(),
        // A page that says which screen it is on holds a message meant for some screens until one is on.
        holds_for_screens: options.screen !== undefined,
        time_zone: timeZone(),
      },
    });
    if (data) {
      options.onCheckin?.(data);
      return data.nextCheckinSeconds;
    }
    // A refusal that asking again soon cannot change (a bad token, the part switched off) waits as long as a check-in.
    return error && response.status < 500 ? DEFAULT_CHECKIN_SECONDS : undefined;
  });

  const events = new EventQueue({
    post: async (batch: GuestEvent[], keepalive: boolean): Promise<BatchOutcome> => {
      const body = { events: batch, app_version: appVersion, platform: 'web' as const, time_zone: timeZone() };
      const { response } = await api.POST('/guest/v1/events', { body, keepalive });
      if (response.ok) return 'sent';
      return response.status >= 500 || response.status === 429 ? 'again' : 'refused';
    },
    sent: () => checkins.request(),
  });

  const receipts = new ReceiptLedger(async (message: ReceiptMessage, action: ReceiptAction, details: ReceiptDetails) => {
    const body = { message_id: message.id, variant: message.variant, action, session_id: sessionId, test: message.test, ...details };
    return (await api.POST('/guest/v1/receipts', { body })).response.ok;
  });

  const life: PageLife = pageLife({
    shown: (hiddenFor) => {
      if (hiddenFor >= SESSION_GAP_MS) sessionId = crypto.randomUUID();
      checkins.request();
    },
    hidden: () => events.flushOnHide(),
  });
  checkins.request();

  const watch = (
    conversationId: string,
    after: number,
    onParts: (parts: Part[], lastSeq: number) => void,
    onEnd?: (status: number) => void,
  ) =>
    watchConversation<Part>({
      after,
      onParts,
      onEnd,
      wait: async (since, signal) =>
        must(
          await api.GET('/guest/v1/conversations/{conversation_id}/wait', {
            params: { path: { conversation_id: conversationId }, query: { after: String(since) } },
            signal,
          }),
        ),
    });

  return {
    /** Every guest route, typed by the published document (openapi-fetch). */
    api,
    /** The id of this time in front, sent with check-ins. */
    get sessionId() {
      return sessionId;
    },
    /** Checks in as soon as the last answer allows. */
    checkin: () => checkins.request(),
    /** A receipt of an in-app message (seen, clicked, dismissed, completed, answered), sent once; whether this call sent it. */
    receipt: (message: ReceiptMessage, action: ReceiptAction, details?: ReceiptDetails) => receipts.send(message, action, details),
    /** A product event, sent in the next batch. */
    track: (name: string, props?: Record<string, string>) => events.track(name, props),
    /** Sends the held events now. */
    flush: () => events.flush(),
    /** Starts a conversation; its `Idempotency-Key` is made once, so however often it is sent it starts once. */
    startConversation: async (body: StartBody) =>
      must(await api.POST('/guest/v1/conversations', { body, params: { header: { 'Idempotency-Key': crypto.randomUUID() } } })),
    /** Sends a message; made once with its own `Idempotency-Key`, kept across tries (sent once when back online). */
    sendMessage: async (conversationId: string, body: MessageBody) =>
      must(
        await api.POST('/guest/v1/conversations/{conversation_id}/messages', {
          body,
          params: { path: { conversation_id: conversationId }, header: { 'Idempotency-Key': crypto.randomUUID() } },
        }),
      ),
    /** Replies on a ticket, kept once like a message. */
    replyToTicket: async (ticketId: string, body: MessageBody) =>
      must(
        await api.POST('/guest/v1/tickets/{ticket_id}/messages', {
          body,
          params: { path: { ticket_id: ticketId }, header: { 'Idempotency-Key': crypto.randomUUID() } },
        }),
      ),
    /** Rates a closed conversation whose team asked for it, once, with an optional remark: the rating's part. */
    rate: async (conversationId: string, body: RatingBody) =>
      must(
        await api.POST('/guest/v1/conversations/{conversation_id}/rating', { body, params: { path: { conversation_id: conversationId } } }),
      ),
    /** The app's topics, the channels each goes by, and whether the user hears of each by each. */
    preferences: async () => must(await api.GET('/guest/v1/preferences')),
    /** Turns topics on or off by channel, or everything off: the preferences as they now are. */
    choose: async (body: PreferencesBody) => must(await api.PUT('/guest/v1/preferences', { body })),
    /** The user's consent to offers by email and by push. */
    consent: async () => must(await api.GET('/guest/v1/consent')),
    /** The user agrees, or no longer agrees, to offers by push: the consent as it now is. */
    agree: async (body: ConsentBody) => must(await api.PUT('/guest/v1/consent', { body })),
    /** The help center's collections in order, each with its sections. */
    collections: async () => must(await api.GET('/guest/v1/collections')),
    /** A collection or section with its articles (and a collection's sections with theirs). */
    collection: async (slug: string) => must(await api.GET('/guest/v1/collections/{slug}', { params: { path: { slug } } })),
    /** Uploads a picture (the upload flow): its id, to name in `attachment_ids`. */
    uploadPicture: async (picture: Blob, fetchUpload: typeof fetch = fetch): Promise<string> => {
      const upload = must(
        await api.POST('/guest/v1/attachments', { body: { bytes: picture.size, content_type: picture.type as PictureType } }),
      );
      // The upload address is signed and may be another host's: no credential of the user's goes there.
      const put = await fetchUpload(upload.upload_url, { method: upload.upload_method, headers: upload.upload_headers, body: picture });
      if (!put.ok) throw await GuestApiError.of(put);
      return upload.id;
    },
    /** Registers the user's push token (on the web: `JSON.stringify(pushSubscription)`), on every start and whenever it changes. */
    registerDevice: async (body: DeviceBody): Promise<void> => void must(await api.PUT('/guest/v1/devices', { body })),
    /** Forgets one of the user's push tokens: before the user signs out, while the user's token still works. */
    forgetDevice: async (token: string): Promise<void> => void must(await api.DELETE('/guest/v1/devices', { body: { token } })),
    /** Follows a conversation while it is on screen: call `stop()` when it is not. */
    watch,
    /**
     * Follows a ticket while it is on screen: its conversation's new parts, and the ticket read again when
     * one of them is an event line (the team moved it, which always writes one). Call `stop()` when it is not.
     */
    watchTicket: (
      ticket: SupportTicket,
      on: { parts: (parts: Part[], lastSeq: number) => void; ticket: (ticket: SupportTicket) => void },
    ) => {
      let stopped = false;
      const path = { params: { path: { ticket_id: ticket.id } } };
      const watching = watch(ticket.conversation_id, ticket.conversation.last_seq, (parts, lastSeq) => {
        on.parts(parts, lastSeq);
        if (parts.some((p) => p.kind === 'event'))
          void api.GET('/guest/v1/tickets/{ticket_id}', path).then(({ data }) => data && !stopped && on.ticket(data));
      });
      return {
        stop() {
          stopped = true;
          watching.stop();
        },
      };
    },
    /** Stops checking in and the page's listeners; held events are sent first (as far as they can be). */
    close: async () => {
      life.stop();
      checkins.stop();
      events.stop();
      await events.flush();
      tokens?.clear();
    },
  };
}

export type GuestClient = ReturnType<typeof createClient>;

function timeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
