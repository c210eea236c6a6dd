import type pg from 'pg';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { FollowStep, OutboxRow, Position } from '../db/outbox-dispatcher.js';
import type { AppMode } from '../generated/prisma/client.js';
import type { OpenBlobStore } from '../lib/blobs/open.js';
import type { Clock } from '../lib/clock.js';
import type { SecretBox } from '../lib/secrets.js';

// What the domain needs from the process it runs in, declared here at the bottom of the domain
// (as Temporal's createActivities(db) takes its dependencies): small interfaces, implemented by
// the concrete classes elsewhere (the outbox dispatcher in src/db, the credential cache in access/,
// the mail transports in mail/) and built once, by openServices (src/services.ts). This file names
// no area of the domain: an area that keeps something per process declares its member of `Caches`
// in its own file, and openServices builds it.

/** What the deployment gives every request: the database, the clock and its secrets. */
export interface Services {
  db: Db;
  pool: pg.Pool;
  clock: Clock;
  secrets: SecretBox;
  /** The outbox as read by this process: live subscriptions watch it. */
  outbox: OutboxReader;
  config: Config;
  /** App-modes, server keys and identity secrets held in memory, dropped when they change (serving only while the outbox is heard). */
  credentials: Credentials;
  /** The one way mail leaves: SMTP when SMTP_URL is set, else the outgoing_mail table (send through sendMail). */
  mail: Mail;
  /** Where files are kept (src/lib/blobs): PostgreSQL, or S3 when configured. */
  blobs: OpenBlobStore;
  /** What this process keeps in memory, one member per area that keeps something (see Caches). */
  caches: Caches;
}

/**
 * The per-process caches, each built once by openServices and reached through `ctx.svc.caches`.
 * An area declares its own member beside the code that uses it, so this file names no area:
 *
 *   declare module '../services.js' {
 *     interface Caches { conversationWaits: ConversationWaits }
 *   }
 *
 * openServices then fails to compile until it builds that member.
 */
export interface Caches {}

/** The process's LISTEN connection (the outbox dispatcher's), for channels other than the outbox's own. */
export interface NoticeSource {
  /**
   * `heard(payload)` for each NOTIFY on the channel, and `heard(undefined)` when notices may have
   * been missed (the connection dropped, and again once it listens anew).
   */
  onNotice(channel: string, heard: (payload: string | undefined) => void): void;
  /** Whether notices are being heard: memory kept by them may answer only while they are. */
  readonly listening: boolean;
}

/** The outbox as this process reads it (src/db/outbox-dispatcher.ts): what the domain asks of it. */
export interface OutboxReader extends NoticeSource {
  /** A request of this process emitted: its live subscribers are served once its answer has gone (or shortly after). */
  holdFor(answered: () => Promise<void>): void;
  /** Calls `handle` with each row of a topic for one app-mode as this process reads it; answers the way to stop. */
  hear(topic: string, appModeId: string, handle: (row: OutboxRow) => void): () => void;
  /** A live subscriber's steps: the changes after `after`, then each new one, until the signal aborts. */
  follow(
    topic: string,
    appModeId: string,
    opts: { after?: { at: Position; time: Date }; now: Date; signal: AbortSignal },
  ): AsyncGenerator<FollowStep>;
}

/** A server key as its hash names it. */
export interface CachedServerKey {
  id: string;
  revokedAt: Date | null;
  appMode: AppMode;
}

/** A user token whose signature was checked with the mode's identity secret (`secretEnc`). */
export interface VerifiedToken {
  appId: string;
  appModeId: string;
  secretEnc: string;
  sub: string;
  exp: number | undefined;
  nbf: number | undefined;
}

/**
 * Credentials held in memory (src/domain/access/credential-cache.ts): each read goes through it,
 * answered from memory while change notices are heard, else by `read`.
 */
export interface Credentials {
  appModeByKey(appKey: string, read: () => Promise<AppMode | null>): Promise<AppMode | undefined>;
  serverKeyByHash(hash: string, read: () => Promise<CachedServerKey | null>): Promise<CachedServerKey | undefined>;
  otherMode(mode: AppMode, read: () => Promise<AppMode | null>): Promise<AppMode | null>;
  /** The opened identity secret of a mode (`open` decrypts it). */
  identitySecret(mode: AppMode, open: (sealed: string) => string): Uint8Array;
  /** A token already verified with this mode's current identity secret, or undefined. */
  verifiedToken(mode: AppMode, token: string): VerifiedToken | undefined;
  keepVerifiedToken(token: string, verified: VerifiedToken, generation: number): void;
  /** The generation now: pass it back to `keep…` after an await, so what was read before a notice is not kept. */
  readonly now: number;
  anyWebOrigin(origin: string, read: () => Promise<boolean>): Promise<boolean>;
}

/** A message ready to go: checked, with its From, Message-ID and Date. */
export interface OutgoingMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  headers: { name: string; value: string }[];
  messageId: string;
  date: Date;
  /** The whole message as MIME, made already (email/mime.ts), with its envelope's sender: SMTP hands it over as it is. */
  mime?: { sender: string; raw: string };
}

/** The one way mail leaves (src/domain/mail/): SMTP, or nothing leaves and the outgoing_mail table keeps it. */
export interface Mail {
  /** `kept`: nothing leaves, the table keeps the whole message. `smtp`: handed to the SMTP server, the table keeps a record without body. */
  readonly via: 'kept' | 'smtp';
  /** The From of every mail. */
  readonly from: string;
  /** Where mail goes, for the log: never a credential. */
  readonly describe: string;
  /** Resolves once the server took the message; rejects with MailNotSent when it did not. */
  send(message: OutgoingMessage): Promise<void>;
}
