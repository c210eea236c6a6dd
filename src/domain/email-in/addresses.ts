import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../context.js';

// The addresses inbound email comes to, at the deployment's inbound domain (INBOUND_EMAIL_DOMAIN,
// by default the domain of MAIL_FROM):
// - a conversation's reply address, `reply+<conversation id, 32 hex><mac, 16 hex>@domain`: it names
//   the conversation, which names its app-mode, and is signed (HMAC-SHA256 under a key derived from
//   the deployment's secret key for this use alone, over the app-mode and the conversation), so no
//   one can write one for a conversation they were not mailed from. Hex, so a mail system that
//   lowercases the local part keeps it readable; 54 characters, under the 64 a local part may hold.
// - an app-mode's inbox, `inbox+<app key>@domain`: mail from a known person starts a conversation.
//   On an app's own hook route every address that is not a reply address is that app's inbox.

const REPLY = /^reply\+([0-9a-f]{32})([0-9a-f]{16})$/i;
const INBOX = /^inbox\+([A-Za-z0-9_]{1,100})$/;

export type ReplyAddressKey = Buffer;
export const replyAddressKey = (svc: Pick<Services, 'secrets'>): ReplyAddressKey => svc.secrets.keyFor('inbound-reply-address');

const macOf = (key: ReplyAddressKey, appModeId: string, conversationId: string) =>
  createHmac('sha256', key).update(`${appModeId}\n${conversationId}`).digest().subarray(0, 8);

const hexOfUuid = (id: string) => id.replaceAll('-', '').toLowerCase();
const uuidOfHex = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

export function replyAddress(key: ReplyAddressKey, domain: string, appModeId: string, conversationId: string): string {
  return `reply+${hexOfUuid(conversationId)}${macOf(key, appModeId, conversationId).toString('hex')}@${domain}`;
}

export const inboxAddress = (domain: string, appKey: string) => `inbox+${appKey}@${domain}`;

/** The bare address of `Name <address>` or of an address, lowercased domain; undefined when it holds none. */
export function bareAddress(text: string): string | undefined {
  const inAngles = /<([^<>\s]+@[^<>\s]+)>/.exec(text)?.[1];
  const address = (inAngles ?? text).trim();
  const at = address.lastIndexOf('@');
  if (at < 1 || at === address.length - 1 || /\s/.test(address) || address.length > 320) return undefined;
  return `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
}

const localPart = (address: string) => address.slice(0, address.lastIndexOf('@'));

/** The conversation a reply address names, with the check of its mark left to the caller (who knows the app-mode). */
export function readReplyAddress(address: string): { conversationId: string; mac: Buffer } | undefined {
  const m = REPLY.exec(localPart(address));
  return m ? { conversationId: uuidOfHex(m[1]!.toLowerCase()), mac: Buffer.from(m[2]!, 'hex') } : undefined;
}

/** Whether the reply address's mark was made by this service for this conversation of this app-mode. */
export const replyMarkHolds = (key: ReplyAddressKey, appModeId: string, conversationId: string, mac: Buffer) =>
  timingSafeEqual(mac, macOf(key, appModeId, conversationId));

/** The app key an inbox address names. */
export const readInboxAddress = (address: string): string | undefined => INBOX.exec(localPart(address))?.[1];
