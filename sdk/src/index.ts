// The guest API's client for websites: `import { createClient } from` this module.
export {
  createClient,
  type ClientOptions,
  type GuestClient,
  type Checkin,
  type Part,
  type StartBody,
  type MessageBody,
  type RatingBody,
  type Preferences,
  type PreferencesBody,
  type Consent,
  type ConsentBody,
  type SupportTicket,
  type DeviceBody,
} from './client.js';
export { GuestApiError } from './errors.js';
export { word, optional, readable } from './words.js';
export { MAX_BATCH, type GuestEvent } from './events.js';
export type { ReceiptAction, ReceiptDetails, ReceiptMessage } from './receipts.js';
export { SDK_VERSION } from './version.js';
export type { components, paths } from './generated/guest-api.js';
