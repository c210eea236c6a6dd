import { randomUUID } from 'node:crypto';
import type { Contact, Conversation } from '../../generated/prisma/client.js';
import { one, rows, sql } from '../../db/sql.js';
import { findAppModeByKey } from '../access/app-modes.js';
import { transaction, type Ctx, type TxCtx } from '../context.js';
import { contactAuthor } from '../conversations/authors.js';
import { MAX_TEXT } from '../conversations/content.js';
import { holdConversation } from '../conversations/conversations.js';
import { reopen, REPLIED } from '../conversations/messages.js';
import { addPart } from '../conversations/parts.js';
import { markReadTo } from '../conversations/read.js';
import { startRuleOf } from '../conversations/settings.js';
import { openConversationOf, startRefused } from '../conversations/start-rule.js';
import { STARTED } from '../conversations/start.js';
import { DomainError, invalidField, notFound } from '../errors.js';
import { lock } from '../locks.js';
import { emit } from '../outbox.js';
import { bareAddress, readInboxAddress, readReplyAddress, replyAddressKey, replyMarkHolds } from './addresses.js';
import { automaticKind } from './automatic.js';
import { bareMessageId } from './email-events.js';
import type { HookOwner } from './hook-access.js';
import { replyOf } from './reply-text.js';

// An email a person wrote (POST …/inbound-email), threaded into their conversation:
// 1. a reply to a conversation's reply address (addresses.ts) joins that conversation;
// 2. else a reply naming one of this service's emails in In-Reply-To or References (any of them, not
//    only the first: a mail client may rewrite In-Reply-To) joins the conversation earlier replies to
//    that email opened, or opens one;
// 3. else a mail to the app-mode's inbox from a known person's address opens a conversation (or,
//    where the app lets a person have one open at a time, joins the one open).
// The sender must be the conversation's person (their address, or the one the email went to): a
// reply from another address never joins someone's conversation. An automatic mail (an
// out-of-office, a delivery failure, a complaint report) never opens or wakes anything and is never
// answered. Only the words the person wrote are kept as their message (reply-text.ts); the email as
// it came is kept beside it (inbound_email) for staff. The provider's id is the key: the same mail
// posted again, or 50 times at once, is threaded once, and answers what the first did.

export interface InboundEmailInput {
  id: string;
  from: string;
  to: string[];
  received_at: Date;
  subject?: string;
  text: string;
  in_reply_to?: string;
  references?: string[];
  headers?: Record<string, string>;
}

export const DROP_REASONS = [
  /** An out-of-office or other automatic reply. */
  'auto_reply',
  /** A delivery-failure notice (a bounce sent as mail). */
  'delivery_failure',
  /** A complaint (abuse) report. */
  'complaint_report',
  /** No address of this service that names a conversation, an email or an app's inbox. */
  'unknown_address',
  /** To an inbox, from an address no person of the app-mode has. */
  'unknown_sender',
  /** A reply from another address than the conversation's person's. */
  'sender_mismatch',
  /** Nothing written outside the quoted email. */
  'no_words',
  /** The app does not let people start conversations. */
  'start_refused',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export interface InboundOutcome {
  outcome: 'threaded' | 'started' | 'dropped';
  reason?: DropReason;
  conversation_id?: string;
  part_id?: string;
  /** The same provider id was taken before: this answers what it did then. */
  repeat?: boolean;
}

const dropped = (reason: DropReason): InboundOutcome => ({ outcome: 'dropped', reason });

/** Message-IDs a reply names, at most this many (a long References header is cut from its start: the newest are last). */
const MAX_REFERENCES = 100;

type Person = Pick<Contact, 'id' | 'appModeId' | 'externalId' | 'displayName' | 'email'>;

interface Target {
  appModeId: string;
  person: Person;
  /** The conversation to join; none: open one. */
  conversationId: string | null;
  /** The email replied to, when that is how it was found. */
  sendId: string | null;
  /** The address that email went to: the person's too, though their contact's has changed since. */
  sentTo?: string;
}

const PERSON = sql`id, app_mode_id AS "appModeId", external_id AS "externalId", display_name AS "displayName", email`;

const personOf = (ctx: Ctx, contactId: string) =>
  one<Person>(ctx, sql`SELECT ${PERSON} FROM contact WHERE id = ${contactId} AND erase_requested_at IS NULL`);

/**
 * A reply address in `to` whose mark holds, for a conversation this owner may reach; 'forged' when
 * `to` holds reply addresses and none holds (forged, altered, or another app's on this app's route).
 */
async function byReplyAddress(ctx: Ctx, owner: HookOwner, to: string[]): Promise<Target | 'forged' | undefined> {
  const key = replyAddressKey(ctx.svc);
  let seen = false;
  for (const address of to) {
    const named = readReplyAddress(address);
    if (!named) continue;
    seen = true;
    const conversation = await one<Pick<Conversation, 'id' | 'appModeId' | 'contactId'>>(
      ctx,
      sql`SELECT id, app_mode_id AS "appModeId", contact_id AS "contactId" FROM conversation WHERE id = ${named.conversationId}`,
    );
    if (!conversation || (owner !== 'deployment' && conversation.appModeId !== owner.appModeId)) continue;
    if (!replyMarkHolds(key, conversation.appModeId, conversation.id, named.mac)) continue;
    const person = await personOf(ctx, conversation.contactId);
    if (person) return { appModeId: conversation.appModeId, person, conversationId: conversation.id, sendId: null };
  }
  return seen ? 'forged' : undefined;
}

/** One of this service's emails named in In-Reply-To or References (the newest named first), and the conversation replies to it opened. */
async function byMessageId(ctx: Ctx, owner: HookOwner, mail: InboundEmailInput): Promise<Target | undefined> {
  const named = [mail.in_reply_to ?? '', ...(mail.references ?? []).slice(-MAX_REFERENCES)].map(bareMessageId).filter(Boolean);
  if (!named.length) return undefined;
  const [send] = await rows<{ id: string; appModeId: string; contactId: string; address: string }>(
    ctx,
    sql`SELECT id, app_mode_id AS "appModeId", contact_id AS "contactId", address FROM email_send
        WHERE mail_message_id = ANY(${named}::text[]) AND contact_id IS NOT NULL
          ${owner === 'deployment' ? sql`` : sql`AND app_mode_id = ${owner.appModeId}`}
        ORDER BY created_at DESC LIMIT 1`,
  );
  if (!send) return undefined;
  const person = await personOf(ctx, send.contactId);
  if (!person) return undefined;
  const earlier = await one<{ conversationId: string }>(
    ctx,
    sql`SELECT i.conversation_id AS "conversationId" FROM inbound_email i JOIN conversation c ON c.id = i.conversation_id
        WHERE i.send_id = ${send.id}::uuid ORDER BY i.created_at DESC LIMIT 1`,
  );
  return { appModeId: send.appModeId, person, conversationId: earlier?.conversationId ?? null, sendId: send.id, sentTo: send.address };
}

/** The app-mode's inbox: the app's own route, or an `inbox+<app key>` address on the deployment's. */
async function inboxOf(ctx: Ctx, owner: HookOwner, to: string[]): Promise<string | undefined> {
  if (owner !== 'deployment') return owner.appModeId;
  for (const address of to) {
    const key = readInboxAddress(address);
    const mode = key && (await findAppModeByKey(ctx.svc, key));
    if (mode) return mode.id;
  }
  return undefined;
}

const senderIs = (person: Person, from: string, also?: string | null) =>
  [person.email, also].some((address) => address && address.toLowerCase() === from.toLowerCase());

export async function receiveInboundEmail(ctx: Ctx, owner: HookOwner, mail: InboundEmailInput): Promise<InboundOutcome> {
  const from = bareAddress(mail.from);
  if (!from) throw invalidField('from', 'must hold an email address: address@example.com or Name <address@example.com>');
  const to = mail.to.map((t) => bareAddress(t)).filter((t): t is string => t !== undefined);
  const automatic = automaticKind({ from, subject: mail.subject, text: mail.text, headers: mail.headers });
  if (automatic) return dropped(automatic);

  const replied = await byReplyAddress(ctx, owner, to);
  if (replied === 'forged') return dropped('unknown_address');
  let target = replied ?? (await byMessageId(ctx, owner, mail));
  if (target && !senderIs(target.person, from, target.sentTo)) return dropped('sender_mismatch');
  if (!target) {
    const appModeId = await inboxOf(ctx, owner, to);
    if (!appModeId) return dropped('unknown_address');
    const person = await one<Person>(
      ctx,
      sql`SELECT ${PERSON} FROM contact WHERE app_mode_id = ${appModeId} AND email = ${from.toLowerCase()} AND erase_requested_at IS NULL
          ORDER BY updated_at DESC, id LIMIT 1`,
    );
    if (!person) return dropped('unknown_sender');
    target = { appModeId, person, conversationId: null, sendId: null };
  }

  const { reply } = replyOf(mail.text);
  if (!reply.trim()) return dropped('no_words');
  const found = target;
  try {
    return await transaction(ctx, (tx) => thread(tx, found, mail, from, reply));
  } catch (err) {
    if (err instanceof DomainError && err.code === 'start_refused') return dropped('start_refused');
    // Erased meanwhile: no one to thread it to.
    if (err instanceof DomainError && err.status === 404) return dropped('unknown_sender');
    throw err;
  }
}

async function thread(tx: TxCtx, target: Target, mail: InboundEmailInput, from: string, reply: string): Promise<InboundOutcome> {
  const { appModeId, person } = target;
  await lock(tx, 'inbound-email', `${appModeId}:${mail.id}`);
  const earlier = await one<{ conversationId: string; partId: string }>(
    tx,
    sql`SELECT conversation_id AS "conversationId", part_id AS "partId" FROM inbound_email
        WHERE app_mode_id = ${appModeId} AND provider_id = ${mail.id}`,
  );
  if (earlier) return { outcome: 'threaded', conversation_id: earlier.conversationId, part_id: earlier.partId, repeat: true };

  const { conversation, started } = await conversationFor(tx, target);
  const text = reply.length > MAX_TEXT ? `${reply.slice(0, MAX_TEXT - 1)}…` : reply;
  const inboundId = randomUUID();
  if (!started) await reopen(tx, conversation);
  const part = await addPart(tx, conversation, {
    kind: 'message',
    author: contactAuthor(person),
    text,
    data: { via: 'email', inbound_email_id: inboundId },
  });
  await markReadTo(tx, conversation, { kind: 'contact', id: person.id }, part.seq);
  await tx.db.inboundEmail.create({
    data: {
      id: inboundId,
      appModeId,
      providerId: mail.id,
      contactId: person.id,
      conversationId: conversation.id,
      partId: part.id,
      sendId: target.sendId,
      fromAddress: from,
      toAddresses: mail.to,
      subject: mail.subject ?? null,
      text: mail.text,
      receivedAt: mail.received_at,
      createdAt: tx.clock.now(),
    },
  });
  await emit(tx, started ? STARTED : REPLIED, {
    appModeId,
    externalId: person.externalId,
    data: { conversation_id: conversation.id, part_id: part.id },
  });
  return { outcome: started ? 'started' : 'threaded', conversation_id: conversation.id, part_id: part.id };
}

/** The conversation to join, held; or one opened for the person, as their start rule allows. */
async function conversationFor(tx: TxCtx, target: Target): Promise<{ conversation: Conversation; started: boolean }> {
  const { appModeId, person } = target;
  if (target.conversationId) return { conversation: await holdConversation(tx, target.conversationId), started: false };
  // Held as a start from the messenger holds it: two at once cannot both find none open.
  const [held] = await rows(tx, sql`SELECT id FROM contact WHERE id = ${person.id} AND erase_requested_at IS NULL FOR UPDATE`);
  if (!held) throw notFound('No such person.');
  // The app's start rule, as for a start from the messenger; where one open at a time is allowed, the one open is joined.
  const rule = await startRuleOf(tx, appModeId);
  if (rule === 'never') throw startRefused();
  const open = rule === 'when_none_open' ? await openConversationOf(tx, appModeId, person.id) : null;
  if (open) return { conversation: await holdConversation(tx, open.id), started: false };
  const now = tx.clock.now();
  const conversation = await tx.db.conversation.create({
    data: {
      id: randomUUID(),
      appModeId,
      contactId: person.id,
      state: 'open',
      lastActivityAt: now,
      visibleActivityAt: now,
      createdAt: now,
      updatedAt: now,
    },
  });
  return { conversation, started: true };
}
