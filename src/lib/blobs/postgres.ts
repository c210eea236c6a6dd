import type pg from 'pg';
import { openToken, signToken, type Signer, type TokenTerms } from './signed-token.js';
import { readWindow, type BlobHead, type BlobStore, type ReadTerms, type SignedAddress, type UploadTerms } from './store.js';

/** Where the PostgreSQL store's addresses are served: `PUT` and `GET <base>/blobs/<token>`. */
export const BLOB_ROUTE_PREFIX = '/blobs/';

/**
 * Bytes in the `blob` table of the service's own database: several server processes on one
 * database need nothing else. Uploads and reads go through this service's own signed routes.
 */
export class PostgresBlobStore implements BlobStore {
  readonly kind = 'postgres';
  readonly receivesUploads = true;
  constructor(private readonly deps: { pool: pg.Pool; sign: Signer; now: () => Date; baseUrl: string }) {}

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.deps.pool.query(
      `INSERT INTO blob (key, content_type, size, bytes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) DO UPDATE SET content_type = EXCLUDED.content_type, size = EXCLUDED.size, bytes = EXCLUDED.bytes, created_at = now()`,
      [key, contentType, bytes.length, bytes],
    );
  }

  async read(key: string): Promise<{ bytes: Buffer; contentType: string } | undefined> {
    const { rows } = await this.deps.pool.query<{ bytes: Buffer; content_type: string }>(
      'SELECT bytes, content_type FROM blob WHERE key = $1',
      [key],
    );
    return rows[0] && { bytes: rows[0].bytes, contentType: rows[0].content_type };
  }

  async head(key: string, length: number): Promise<BlobHead | undefined> {
    const { rows } = await this.deps.pool.query<{ head: Buffer; content_type: string; size: number }>(
      'SELECT substring(bytes FROM 1 FOR $2) AS head, content_type, size FROM blob WHERE key = $1',
      [key, length],
    );
    return rows[0] && { head: rows[0].head, contentType: rows[0].content_type, size: rows[0].size };
  }

  async deleteMany(keys: string[]): Promise<void> {
    if (keys.length) await this.deps.pool.query('DELETE FROM blob WHERE key = ANY($1::text[])', [keys]);
  }

  async uploadAddress(key: string, terms: UploadTerms): Promise<SignedAddress> {
    const expiresAt = new Date(this.deps.now().getTime() + terms.seconds * 1000);
    return this.address(
      { method: 'put', key, expiresAt, contentType: terms.contentType, size: terms.size },
      { 'Content-Type': terms.contentType },
    );
  }

  async readAddress(key: string, terms: ReadTerms): Promise<SignedAddress> {
    const { expiresAt } = readWindow(this.deps.now(), terms.seconds);
    return this.address({ method: 'get', key, expiresAt, contentType: terms.contentType }, {});
  }

  close(): void {}

  /** The terms of an address this store signed, for the route answering it (BlobAddressRefused otherwise). */
  open(token: string, method: 'put' | 'get'): TokenTerms {
    return openToken(this.deps.sign, token, method, this.deps.now());
  }

  private address(terms: TokenTerms, headers: Record<string, string>): SignedAddress {
    const url = `${this.deps.baseUrl}${BLOB_ROUTE_PREFIX}${signToken(this.deps.sign, terms)}`;
    return {
      url,
      method: terms.method === 'put' ? 'PUT' : 'GET',
      headers,
      expiresAt: new Date(Math.ceil(terms.expiresAt.getTime() / 1000) * 1000),
    };
  }
}
