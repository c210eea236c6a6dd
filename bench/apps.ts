import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { readConfig } from '../src/config.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { createServerKey } from '../src/domain/apps/server-keys.js';
import { systemContext } from '../src/domain/context.js';
import { openServices } from '../src/services.js';

// A workspace and app for a benchmark, made through the domain as the console would.

export interface BenchApp {
  appKey: string;
  identitySecret: string;
  appModeId: string;
  /** The live mode's server keys: its first, and as many more as asked. */
  serverKeys: string[];
}

/** A bench app with its live mode, its key, identity secret and `serverKeys` server keys in all. */
export async function makeBenchApp(url: string, secretKey: string, name: string, serverKeys = 1): Promise<BenchApp> {
  const svc = await openServices({ config: readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), url, secretKey });
  try {
    const ws = await svc.db.workspace.create({ data: { id: randomUUID(), name } });
    const app = await createApp(systemContext(svc, 'bench'), { workspaceId: ws.id, name: `${name} app` });
    const mode = await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } });
    const keys = [app.live.server_key];
    while (keys.length < serverKeys) keys.push((await createServerKey(systemContext(svc, 'bench'), mode.id)).serverKey);
    return { appKey: app.live.app_key, identitySecret: app.live.identity_secret, appModeId: mode.id, serverKeys: keys };
  } finally {
    await svc.close();
  }
}

/** A person's signed token for the guest API (HS256 with the mode's identity secret, 2 hours). */
export const guestToken = (identitySecret: string, sub: string): Promise<string> =>
  new SignJWT({ sub })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(identitySecret));
