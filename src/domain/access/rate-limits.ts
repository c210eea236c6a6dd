import { exec, rows, sql } from '../../db/sql.js';
import type { Services } from '../context.js';
import { tooManyRequests } from '../errors.js';

export interface Allowance {
  key: string;
  perMinute: number;
}

const WINDOW_SECONDS = 60;

// Counts live in PostgreSQL (crm_rate_grant: per-second buckets in rate_bucket, under a per-key
// lock held for one short statement whose commit does not wait for a disk flush), so every server
// process on one database shares them.
//
// takeRequest is exact: one statement per request, never more than `perMinute` in any 60-second
// span (the server key limit, sign-in tries).
//
// takeShared spends slots this process took in chunks: a key's chunk is granted by PostgreSQL as
// counted at the second it is granted, then spent in memory for at most CHUNK_LEASE_MS; a request
// whose keys all have slots left makes no statement at all. What is left of an expired chunk is
// handed back with the next grant of that key. A chunk is at most 1% of the limit (so limits under
// 200 a minute are exact) and grows from 1 with the rate this process sees. In any 60-second span
// at most `perMinute + P × (chunk − 1)` are admitted for P processes, and a request may be refused
// while up to P × chunk slots sit unspent in other processes: within 1% per process either way.

/** How long a process may spend a granted chunk. */
const CHUNK_LEASE_MS = 1000;
/** A chunk is at most this share of the limit. */
const CHUNK_SHARE = 100;
/** Chunks kept per process; beyond, the least recently granted is dropped (its slots unspent). */
const MAX_CHUNKS = 10_000;

interface Chunk {
  left: number;
  /** The second it was granted at (its slots are counted there). */
  second: number;
  until: number;
  /** Slots granted, and spent so far: the next chunk is sized by how fast this one went. */
  granted: number;
  spent: number;
  /** A grant of this key in flight: others wait for it rather than asking too. */
  pending?: Promise<void>;
}

declare module '../services.js' {
  interface Caches {
    /** This process's chunks of shared limits, by key (built by openServices). */
    rateChunks: Map<string, Chunk>;
  }
}

const chunksOf = (svc: Services): Map<string, Chunk> => svc.caches.rateChunks;

interface Grant {
  key: string;
  limit: number;
  want: number;
  giveBack: number;
  giveBackSecond: number;
}

/** One statement: admitted with the slots granted per key, or refused with the seconds to wait. */
async function grant(svc: Services, grants: Grant[], nowMs: number): Promise<number[]> {
  const [row] = await rows<{ r: number[] }>(svc, {
    text: 'SELECT crm_rate_grant($1::text[], $2::int[], $3::int[], $4::int[], $5::bigint[], $6, $7) AS r',
    values: [
      grants.map((g) => g.key),
      grants.map((g) => g.limit),
      grants.map((g) => g.want),
      grants.map((g) => g.giveBack),
      grants.map((g) => g.giveBackSecond),
      WINDOW_SECONDS,
      nowMs,
    ],
  });
  const r = row!.r;
  if (r[0]! > 0) throw tooManyRequests(r[0]!);
  return r.slice(1);
}

/**
 * Admits one request against every allowance at once, or throws 429 with the seconds to wait.
 * Exact: never more than `perMinute` in any 60-second span, shared by every process.
 */
export async function takeRequest(svc: Services, allowances: Allowance[]): Promise<void> {
  await grant(
    svc,
    allowances.map((a) => ({ key: a.key, limit: a.perMinute, want: 1, giveBack: 0, giveBackSecond: 0 })),
    svc.clock.now().getTime(),
  );
}

/**
 * Admits one request against every allowance at once, or throws 429, spending slots held in this
 * process where it can (see above for the precision); at most one short statement.
 */
export async function takeShared(svc: Services, allowances: Allowance[]): Promise<void> {
  const chunks = chunksOf(svc);
  for (;;) {
    const nowMs = svc.clock.now().getTime();
    const live = allowances.map((a) => {
      const chunk = chunks.get(a.key);
      return chunk && chunk.left > 0 && nowMs < chunk.until ? chunk : undefined;
    });
    const missing = allowances.filter((_, i) => !live[i]);
    if (!missing.length) {
      for (const chunk of live) spend(chunk!);
      return;
    }
    // Another request of this process is asking for one of these keys: wait for its answer.
    const pending = missing.map((a) => chunks.get(a.key)?.pending).filter((p) => p !== undefined);
    if (pending.length) {
      await Promise.all(pending.map((p) => p.catch(() => {})));
      continue;
    }
    // Hold the slots this process has for the other keys, so a refusal gives them back untouched.
    const held = live.filter((c) => c !== undefined);
    for (const chunk of held) spend(chunk);
    const asked = missing.map((a) => {
      const old = chunks.get(a.key);
      const cap = Math.max(1, Math.floor(a.perMinute / CHUNK_SHARE));
      // Used up within its lease: twice as many; else as many as were spent.
      const want = !old ? 1 : Math.min(cap, Math.max(1, old.left === 0 && nowMs < old.until ? 2 * old.granted : old.spent));
      return { key: a.key, limit: a.perMinute, want, giveBack: old?.left ?? 0, giveBackSecond: old?.second ?? 0, old };
    });
    let settle!: () => void;
    const pendingGrant = new Promise<void>((resolve) => (settle = resolve));
    for (const a of asked) {
      // What is handed back now is no longer this process's to spend.
      if (a.old) a.old.left = 0;
      const placeholder: Chunk = {
        left: 0,
        second: 0,
        until: 0,
        granted: a.old?.granted ?? 0,
        spent: a.old?.spent ?? 0,
        pending: pendingGrant,
      };
      remember(chunks, a.key, placeholder);
    }
    try {
      const granted = await grant(svc, asked, nowMs);
      asked.forEach((a, i) => {
        const n = granted[i]!;
        remember(chunks, a.key, { left: n - 1, second: Math.floor(nowMs / 1000), until: nowMs + CHUNK_LEASE_MS, granted: n, spent: 1 });
      });
      return;
    } catch (err) {
      for (const chunk of held) {
        chunk.left++;
        chunk.spent--;
      }
      for (const a of asked) if (chunks.get(a.key)?.pending === pendingGrant) chunks.delete(a.key);
      throw err;
    } finally {
      settle();
    }
  }
}

function spend(chunk: Chunk): void {
  chunk.left--;
  chunk.spent++;
}

function remember(chunks: Map<string, Chunk>, key: string, chunk: Chunk): void {
  chunks.delete(key);
  chunks.set(key, chunk);
  if (chunks.size > MAX_CHUNKS) chunks.delete(chunks.keys().next().value as string);
}

/** Drops buckets that no window reaches any more. */
export async function sweepRateBuckets(svc: Services): Promise<void> {
  await exec(svc, sql`DELETE FROM rate_bucket WHERE second < ${Math.floor(svc.clock.now().getTime() / 1000) - WINDOW_SECONDS - 1}`);
}
