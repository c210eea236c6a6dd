import type pg from 'pg';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { OutboxDispatcher } from '../db/outbox-dispatcher.js';
import type { Clock } from '../lib/clock.js';
import type { SecretBox } from '../lib/secrets.js';
import type { AppMode } from '../generated/prisma/client.js';
import type { CredentialCache } from './access/credential-cache.js';

/** What every resolver needs: the database, the clock and the deployment's secrets. */
export interface Services {
  db: Db;
  pool: pg.Pool;
  clock: Clock;
  secrets: SecretBox;
  /** The outbox as read by this process: live subscriptions watch it. */
  outbox: OutboxDispatcher;
  config: Config;
  /** App-modes, server keys and identity secrets held in memory, dropped when they change (serving only while the outbox is heard). */
  credentials: CredentialCache;
}

/** One app-mode: every tenant query is scoped by `appModeId`. */
export interface AppScope {
  appModeId: string;
  appId: string;
  mode: 'live' | 'test';
  settings: AppMode;
}

export interface GuestCaller extends AppScope {
  externalId: string;
  sdk: string | undefined;
}

export interface ServerCaller extends AppScope {
  serverKeyId: string;
}

export const scopeOf = (mode: AppMode): AppScope => ({ appModeId: mode.id, appId: mode.appId, mode: mode.mode, settings: mode });
