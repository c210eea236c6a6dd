import { PostgresBlobStore, type BlobTableDeps } from './postgres.js';
import type { S3BlobStore, S3Settings } from './s3.js';

export type BlobSettings = { store: 'postgres' } | { store: 's3'; s3: S3Settings };

export type OpenBlobStore = PostgresBlobStore | S3BlobStore;

/**
 * The store configuration names (BLOB_STORE): PostgreSQL unless S3 is asked for. The S3 client
 * (some 300 modules of the AWS SDK) is loaded only then.
 */
export async function openBlobStore(settings: BlobSettings, deps: BlobTableDeps): Promise<OpenBlobStore> {
  if (settings.store !== 's3') return new PostgresBlobStore(deps);
  const { S3BlobStore } = await import('./s3.js');
  return new S3BlobStore(settings.s3, deps.now);
}

/** BLOB_STORE and the S3_* settings, refused at start when they cannot work. */
export function readBlobSettings(env: NodeJS.ProcessEnv): BlobSettings {
  const store = env.BLOB_STORE || 'postgres';
  if (store === 'postgres') return { store };
  if (store !== 's3') throw new Error(`BLOB_STORE must be postgres or s3, not "${store}"`);
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new Error('BLOB_STORE=s3 needs S3_BUCKET');
  if (env.S3_ENDPOINT && !/^https?:\/\/[^/]/.test(env.S3_ENDPOINT))
    throw new Error(`S3_ENDPOINT must be an absolute http(s) address, not "${env.S3_ENDPOINT}"`);
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey) throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  if (pathStyle && !['true', 'false', '1', '0'].includes(pathStyle))
    throw new Error(`S3_FORCE_PATH_STYLE must be true or false, not "${pathStyle}"`);
  return {
    store,
    s3: {
      endpoint: env.S3_ENDPOINT || undefined,
      region: env.S3_REGION || 'us-east-1',
      bucket,
      accessKeyId,
      secretAccessKey,
      forcePathStyle: pathStyle === 'true' || pathStyle === '1',
    },
  };
}
