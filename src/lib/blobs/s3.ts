import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { readWindow, type BlobHead, type BlobStore, type ReadTerms, type SignedAddress, type UploadTerms } from './store.js';

export interface S3Settings {
  /** An S3-compatible server's address; AWS itself when left out. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Both, or neither (the SDK's usual credential chain then). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (most self-hosted servers). */
  forcePathStyle: boolean;
}

const missing = (err: unknown) =>
  err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/**
 * An S3-compatible bucket: clients upload and read with presigned addresses (SigV4), so the bytes
 * never pass through the service. The upload address signs its Content-Type and Content-Length,
 * so the store itself refuses another type or size.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  readonly receivesUploads = false;
  private readonly client: S3Client;
  constructor(
    private readonly settings: S3Settings,
    private readonly now: () => Date,
  ) {
    const { endpoint, region, forcePathStyle, accessKeyId, secretAccessKey } = settings;
    this.client = new S3Client({
      endpoint,
      region,
      forcePathStyle,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      // Checksums only where the API requires them: S3-compatible servers other than AWS often do not know the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length }),
    );
  }

  async read(key: string): Promise<{ bytes: Buffer; contentType: string } | undefined> {
    try {
      const got = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return { bytes: Buffer.from(await got.Body!.transformToByteArray()), contentType: got.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
  }

  async head(key: string, length: number): Promise<BlobHead | undefined> {
    const Bucket = this.settings.bucket;
    try {
      // The size first: a ranged read of an empty object is answered differently by S3-compatible servers (416, or a stalled body).
      const stat = await this.client.send(new HeadObjectCommand({ Bucket, Key: key }));
      const size = stat.ContentLength ?? 0;
      const contentType = stat.ContentType ?? 'application/octet-stream';
      if (size === 0 || length <= 0) return { head: Buffer.alloc(0), size, contentType };
      const got = await this.client.send(new GetObjectCommand({ Bucket, Key: key, Range: `bytes=0-${Math.min(length, size) - 1}` }));
      return { head: Buffer.from(await got.Body!.transformToByteArray()).subarray(0, length), size, contentType };
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
  }

  async deleteMany(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const out = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.settings.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length)
        throw new Error(`the blob store kept ${failed.length} of ${batch.length} objects: ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`);
    }
  }

  async uploadAddress(key: string, terms: UploadTerms): Promise<SignedAddress> {
    // Whole seconds, as X-Amz-Date has them.
    const signingDate = new Date(Math.floor(this.now().getTime() / 1000) * 1000);
    const command = new PutObjectCommand({
      Bucket: this.settings.bucket,
      Key: key,
      ContentType: terms.contentType,
      ContentLength: terms.size,
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: terms.seconds,
      signingDate,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
    return {
      url,
      method: 'PUT',
      headers: { 'Content-Type': terms.contentType },
      expiresAt: new Date(signingDate.getTime() + terms.seconds * 1000),
    };
  }

  async readAddress(key: string, terms: ReadTerms): Promise<SignedAddress> {
    const { signedAt, expiresAt } = readWindow(this.now(), terms.seconds);
    // The type answered is the one checked, whatever the object's own metadata says.
    const command = new GetObjectCommand({ Bucket: this.settings.bucket, Key: key, ResponseContentType: terms.contentType });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: Math.round((expiresAt.getTime() - signedAt.getTime()) / 1000),
      signingDate: signedAt,
    });
    return { url, method: 'GET', headers: {}, expiresAt };
  }

  close(): void {
    this.client.destroy();
  }
}
