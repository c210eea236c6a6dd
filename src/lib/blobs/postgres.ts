import { openToken, signToken, type Signer, type TokenTerms } from './signed-token.js';
import { readWindow, type BlobHead, type BlobStore, type ReadTerms, type SignedAddress, type UploadTerms } from './store.js';

/** Where the PostgreSQL store's addresses are served: `PUT` and `GET <base>/blobs/<token>`. */
export const BLOB_ROUTE_PREFIX = '/blobs/';

/**
 * What the store needs: a way to run one statement on the service's database (the database layer's
 * SQL helper, handed in by the wiring, since this library knows nothing of it), signing, the clock
 * and the service's address.
 */
export interface BlobTableDeps {
  query<T>(text: string, values: unknown[]): Promise<T[]>;
  sign: Signer;
  now: () => Date;
  baseUrl: string;
}

/**
 * Bytes in the `blob` table of the service's own database: several server processes on one
 * database need nothing else. Uploads and reads go through this service's own signed routes.
 */
export class PostgresBlobStore implements BlobStore {
  readonly kind = 'postgres';
  readonly receivesUploads = true;
  constructor(private readonly deps: BlobTableDeps) {}

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.deps.query(
      `INSERT INTO blob (key, content_type, size, bytes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) DO UPDATE SET content_type = EXCLUDED.content_type, size = EXCLUDED.size, bytes = EXCLUDED.bytes, created_at = now()`,
      [key, contentType, bytes.length, bytes],
    );
  }

  async read(key: string): Promise<{ bytes: Buffer; contentType: string } | undefined> {
    const [row] = await this.deps.query<{ bytes: Buffer; content_type: string }>('SELECT bytes, content_type FROM blob WHERE key = $1', [
      key,
    ]);
    return row && { bytes: row.bytes, contentType: row.content_type };
  }

  async head(key: string, length: number): Promise<BlobHead | undefined> {
    const [row] = await this.deps.query<{ head: Buffer; content_type: string; size: number }>(
      'SELECT substring(bytes FROM 1 FOR $1) AS head, content_type, size FROM blob WHERE key = $2',
      [length, key],
    );
    return row && { head: row.head, contentType: row.content_type, size: row.size };
  }

  async deleteMany(keys: string[]): Promise<void> {
    if (keys.length) await this.deps.query('DELETE FROM blob WHERE key = ANY($1::text[])', [keys]);
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
