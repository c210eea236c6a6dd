import { APNS_PAYLOAD_LIMIT } from '../../lib/push/apns.js';
import { FCM_PAYLOAD_LIMIT, fcmPayloadSize, type FcmContent } from '../../lib/push/fcm.js';
import { bytesOf } from '../../lib/push/outcome.js';
import { WEB_PUSH_PAYLOAD_LIMIT } from '../../lib/push/web-push.js';
import type { FieldError } from '../errors.js';

// What a push carries on each provider: the title and body shown, and for the app the link to open
// (a path in the app or an https URL) and the send's id. Built once per send and checked against
// every provider's size limit when staff send it, so nothing is refused halfway through.

export interface PushContent {
  sendId: string;
  title: string;
  body: string | null;
  link: string | null;
}

/** The app's own members, beside what the system shows. */
const appData = (c: PushContent): Record<string, string> => ({ send_id: c.sendId, ...(c.link ? { link: c.link } : {}) });

export const apnsPayload = (c: PushContent): string =>
  JSON.stringify({ aps: { alert: { title: c.title, ...(c.body ? { body: c.body } : {}) }, sound: 'default' }, ...appData(c) });

export const fcmContent = (c: PushContent): FcmContent => ({
  notification: { title: c.title, ...(c.body ? { body: c.body } : {}) },
  data: appData(c),
});

/** What the service worker's push event reads (event.data.json()). */
export const webPayload = (c: PushContent): string =>
  JSON.stringify({ title: c.title, ...(c.body ? { body: c.body } : {}), ...appData(c) });

/** The push's size on each provider beyond its limit, as a refusal of `body` (or `title` when there is none). */
export function payloadProblems(c: PushContent): FieldError[] {
  const sizes: [string, number, number][] = [
    ['APNs', bytesOf(apnsPayload(c)), APNS_PAYLOAD_LIMIT],
    ['FCM', fcmPayloadSize(fcmContent(c)), FCM_PAYLOAD_LIMIT],
    ['Web Push', bytesOf(webPayload(c)), WEB_PUSH_PAYLOAD_LIMIT],
  ];
  const over = sizes.filter(([, bytes, limit]) => bytes > limit);
  if (!over.length) return [];
  const said = over
    .map(([name, bytes, limit]) => `${bytes.toLocaleString('en')} bytes for ${name}, which takes ${limit.toLocaleString('en')}`)
    .join('; ');
  return [{ field: c.body ? 'body' : 'title', message: `makes the push too large (${said}): shorten the title, body or link` }];
}
