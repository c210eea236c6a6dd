import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** CRM_SECRET_KEY, or a key kept in the data folder (made on first use, readable by its owner only). */
export async function resolveSecretKey(config: { secretKey: string | undefined; dataDir: string }): Promise<string> {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, 'secret.key');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    const key = randomBytes(32).toString('base64');
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' }).catch(async () => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}
