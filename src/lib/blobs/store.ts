// Blob storage: bytes kept by key for every area that keeps files (attachments, help-center
// pictures). It knows nothing of the domain: a key names its owner (`attachments/<app mode>/<id>`),
// and who may upload or read is decided by whoever hands out the signed addresses.

/** A short-lived address a client uses directly: the method, the headers it must send, until when. */
export interface SignedAddress {
  url: string;
  method: 'PUT' | 'GET';
  /** Headers the request must carry as given (the upload's Content-Type is part of its signature). */
  headers: Record<string, string>;
  expiresAt: Date;
}

/** What is stored under a key, read without its bytes: its size, type and first bytes. */
export interface BlobHead {
  size: number;
  contentType: string;
  /** At most the length asked for. */
  head: Buffer;
}

export interface UploadTerms {
  /** The Content-Type the upload must carry. */
  contentType: string;
  /** The exact number of bytes the upload must have. */
  size: number;
  /** How long the address works. */
  seconds: number;
}

export interface ReadTerms {
  /** The address works at least this long (the stores round it up so repeated asks share an address, and a cache). */
  seconds: number;
  /** The Content-Type the bytes are answered with. */
  contentType: string;
}

export interface BlobStore {
  readonly kind: 'postgres' | 's3';
  /**
   * Uploads come through this service (its own upload route), so the area that gave the address
   * sees every upload's bytes as they arrive; otherwise they go straight to the store, and the area
   * checks what is there (`head`) when it first needs to.
   */
  readonly receivesUploads: boolean;
  /** Keeps the bytes under the key, replacing what was there. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  read(key: string): Promise<{ bytes: Buffer; contentType: string } | undefined>;
  /** The size, type and first `length` bytes, without reading the rest; undefined when nothing is stored. */
  head(key: string, length: number): Promise<BlobHead | undefined>;
  /** Removes these keys; keys with nothing stored are passed over. */
  deleteMany(keys: string[]): Promise<void>;
  /** Where a client PUTs the bytes itself, with the type and size it must have. */
  uploadAddress(key: string, terms: UploadTerms): Promise<SignedAddress>;
  /** Where a client GETs the bytes itself. */
  readAddress(key: string, terms: ReadTerms): Promise<SignedAddress>;
  /** Lets go of connections the store holds (not the database's). */
  close(): void;
}

/**
 * Read addresses are rounded to steps of this length: asked again within it, the same address is
 * answered, so a client's cache of the picture holds.
 */
export const READ_ADDRESS_STEP_SECONDS = 300;

/** When a read address asked for at `now` expires, and the start of its step (the S3 signing time). */
export function readWindow(now: Date, seconds: number): { signedAt: Date; expiresAt: Date } {
  const step = READ_ADDRESS_STEP_SECONDS * 1000;
  const signedAt = Math.floor(now.getTime() / step) * step;
  return { signedAt: new Date(signedAt), expiresAt: new Date(signedAt + step + seconds * 1000) };
}
