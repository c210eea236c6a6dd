import type pg from 'pg';
import type { AppMode } from '../../generated/prisma/client.js';
import type { CachedServerKey, Credentials, NoticeSource, VerifiedToken } from '../services.js';

// Credentials in memory, per process: the app-mode an app key names, the server key a hash names
// (with its app-mode), each mode's opened identity secret, the user tokens already verified with
// it, and whether any app-mode lists a web origin. A change to an app, an app-mode or a server key
// is announced at commit by triggers in PostgreSQL (NOTIFY crm_credentials, payload: the app id;
// prisma/migrations/…_credential_notices_rate_grants), whatever made it, and every process drops
// that app's entries when it hears it:
// - other processes hear it on their outbox LISTEN connection (`attach`), within milliseconds;
// - this process's pool connections listen too, so PostgreSQL hands a connection the notice of its
//   own commit before the commit's answer: a write made here is never followed here by a stale read.
// Memory is trusted only while the LISTEN connection is up: when it drops, everything is forgotten
// and read from the database until it listens again (then forgotten once more, as notices may have
// been missed in between). A read that began before a notice is not kept (the generation check).
// Unknown keys are never kept: a miss costs a read, and refused credentials count against the
// caller's address, so guessing cannot fill memory. Every map is bounded, least recently used first.

export const CREDENTIALS_CHANNEL = 'crm_credentials';

/** Entries per kind; a deployment with more active keys than this reads the rest from the database. */
export const MAX_ENTRIES = 10_000;
/** Verified user tokens kept (a device sends the same token for its whole life, often an hour or more). */
const MAX_TOKENS = 20_000;
/** Longer tokens are verified every time rather than kept. */
const MAX_TOKEN_LENGTH = 1_024;
const MAX_ORIGINS = 1_000;

/** A map that forgets its least recently used entry beyond `max`. */
class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }
  deleteWhere(drop: (value: V) => boolean): void {
    for (const [key, value] of this.map) if (drop(value)) this.map.delete(key);
  }
  clear(): void {
    this.map.clear();
  }
  get size(): number {
    return this.map.size;
  }
}

export type { CachedServerKey, NoticeSource, VerifiedToken };

export class CredentialCache implements Credentials {
  private readonly appModes = new Lru<string, AppMode>(MAX_ENTRIES);
  private readonly serverKeys = new Lru<string, CachedServerKey>(MAX_ENTRIES);
  /** The other mode of an app (for the "signed with the other mode's secret" detail), by the asking mode's id; null: none. */
  private readonly otherModes = new Lru<string, { appId: string; other: AppMode | null }>(MAX_ENTRIES);
  /** Opened identity secrets, by their sealed form. */
  private readonly secrets = new Lru<string, { appId: string; key: Uint8Array }>(MAX_ENTRIES);
  private readonly tokens = new Lru<string, VerifiedToken>(MAX_TOKENS);
  private readonly origins = new Lru<string, boolean>(MAX_ORIGINS);
  /** Bumped by every notice: a read that began before one is not kept. */
  private generation = 0;
  private source: NoticeSource | undefined;

  /**
   * Starts keeping credentials: notices come from `source` (the process's LISTEN connection) and,
   * for this process's own commits, from each connection of `pool`. Call before the pool connects.
   */
  attach(source: NoticeSource, pool: pg.Pool): void {
    this.source = source;
    source.onNotice(CREDENTIALS_CHANNEL, (payload) => this.forget(payload));
    // Awaited by the pool before it hands a new connection out (pg-pool's onConnect hook).
    const before = pool.options.onConnect;
    pool.options.onConnect = async (client) => {
      await before?.(client);
      client.on('notification', (msg) => {
        if (msg.channel === CREDENTIALS_CHANNEL) this.forget(msg.payload);
      });
      await client.query(`LISTEN ${CREDENTIALS_CHANNEL}`).catch(() => {});
    };
  }

  /** Whether memory may answer: notices are being heard. */
  get serving(): boolean {
    return this.source?.listening ?? false;
  }

  /** Drops what an app's change may have made stale; everything when `appId` is undefined or empty. */
  forget(appId?: string): void {
    this.generation++;
    this.origins.clear();
    if (!appId) {
      for (const lru of [this.appModes, this.serverKeys, this.otherModes, this.secrets, this.tokens])
        (lru as Lru<unknown, unknown>).clear();
      return;
    }
    this.appModes.deleteWhere((m) => m.appId === appId);
    this.serverKeys.deleteWhere((k) => k.appMode.appId === appId);
    this.otherModes.deleteWhere((o) => o.appId === appId);
    this.secrets.deleteWhere((s) => s.appId === appId);
    this.tokens.deleteWhere((t) => t.appId === appId);
  }

  /** Entries held, by kind (for tests and metrics). */
  sizes(): Record<string, number> {
    return {
      appModes: this.appModes.size,
      serverKeys: this.serverKeys.size,
      otherModes: this.otherModes.size,
      secrets: this.secrets.size,
      tokens: this.tokens.size,
      origins: this.origins.size,
    };
  }

  appModeByKey(appKey: string, read: () => Promise<AppMode | null>): Promise<AppMode | undefined> {
    return this.through(this.appModes, appKey, read);
  }

  serverKeyByHash(hash: string, read: () => Promise<CachedServerKey | null>): Promise<CachedServerKey | undefined> {
    return this.through(this.serverKeys, hash, read);
  }

  async otherMode(mode: AppMode, read: () => Promise<AppMode | null>): Promise<AppMode | null> {
    const kept = this.serving ? this.otherModes.get(mode.id) : undefined;
    if (kept) return kept.other;
    const generation = this.generation;
    const other = await read();
    if (this.serving && generation === this.generation) this.otherModes.set(mode.id, { appId: mode.appId, other });
    return other;
  }

  /** The opened identity secret of a mode (`open` decrypts it), kept by its sealed form. */
  identitySecret(mode: AppMode, open: (sealed: string) => string): Uint8Array {
    const kept = this.serving ? this.secrets.get(mode.identitySecretEnc) : undefined;
    if (kept) return kept.key;
    const key = new TextEncoder().encode(open(mode.identitySecretEnc));
    if (this.serving) this.secrets.set(mode.identitySecretEnc, { appId: mode.appId, key });
    return key;
  }

  /** A token already verified with this mode's current identity secret, or undefined. */
  verifiedToken(mode: AppMode, token: string): VerifiedToken | undefined {
    if (!this.serving) return undefined;
    const kept = this.tokens.get(token);
    return kept && kept.appModeId === mode.id && kept.secretEnc === mode.identitySecretEnc ? kept : undefined;
  }

  keepVerifiedToken(token: string, verified: VerifiedToken, generation: number): void {
    if (this.serving && token.length <= MAX_TOKEN_LENGTH && generation === this.generation) this.tokens.set(token, verified);
  }

  /** The generation now: pass it back to `keep…` after an await, so what was read before a notice is not kept. */
  get now(): number {
    return this.generation;
  }

  async anyWebOrigin(origin: string, read: () => Promise<boolean>): Promise<boolean> {
    const kept = this.serving ? this.origins.get(origin) : undefined;
    if (kept !== undefined) return kept;
    const generation = this.generation;
    const listed = await read();
    if (this.serving && generation === this.generation) this.origins.set(origin, listed);
    return listed;
  }

  private async through<V extends object>(lru: Lru<string, V>, key: string, read: () => Promise<V | null>): Promise<V | undefined> {
    const kept = this.serving ? lru.get(key) : undefined;
    if (kept) return kept;
    const generation = this.generation;
    const value = (await read()) ?? undefined;
    // Unknown keys are not kept; nor is a read that a notice may have overtaken.
    if (value && this.serving && generation === this.generation) lru.set(key, value);
    return value;
  }
}
