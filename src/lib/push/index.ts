// Sending pushes through APNs, FCM and Web Push, knowing nothing of who they go to: docs/areas/push.md.
export { apnsKeyProblem, ApnsTokens, sendApns, APNS_PAYLOAD_LIMIT, type ApnsCredentials, type ApnsPush } from './apns.js';
export { FcmTokens, fcmPayloadSize, readServiceAccount, sendFcm, FCM_PAYLOAD_LIMIT, type FcmContent, type ServiceAccount } from './fcm.js';
export {
  newVapidKeys,
  readSubscription,
  vapidProblems,
  WebPushClient,
  WEB_PUSH_PAYLOAD_LIMIT,
  type VapidKeys,
  type WebSubscription,
} from './web-push.js';
export { Http2Client } from './h2.js';
export { bytesOf, retryAfterMs, type PushOutcome } from './outcome.js';
export type { PushTransportOptions } from './connect.js';
