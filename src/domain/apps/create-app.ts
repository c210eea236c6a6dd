import { randomUUID } from 'node:crypto';
import type { Services } from '../context.js';
import { hashServerKey, newAppKey, newIdentitySecret, newInboundSecret, newServerKey, serverKeyHint, type ModeName } from './credentials.js';

/** What is shown once when an app is made: each mode's app key, a server key and its secrets. */
export interface ModeCredentials {
  app_key: string;
  server_key: string;
  identity_secret: string;
  inbound_secret: string;
}

export interface CreatedApp {
  workspaceId: string;
  appId: string;
  live: ModeCredentials;
  test: ModeCredentials;
}

export async function createApp(svc: Services, input: { workspaceId: string; name: string }): Promise<CreatedApp> {
  const appId = randomUUID();
  const made = { live: credentials('live'), test: credentials('test') };
  await svc.db.$transaction(async (tx) => {
    await tx.app.create({ data: { id: appId, workspaceId: input.workspaceId, name: input.name } });
    for (const mode of ['live', 'test'] as const) {
      const c = made[mode];
      const appModeId = randomUUID();
      await tx.appMode.create({
        data: {
          id: appModeId,
          appId,
          mode,
          appKey: c.app_key,
          identitySecretEnc: svc.secrets.seal(c.identity_secret),
          inboundSecretEnc: svc.secrets.seal(c.inbound_secret),
          brandName: input.name,
        },
      });
      await tx.serverKey.create({
        data: { id: randomUUID(), appModeId, keyHash: hashServerKey(c.server_key), hint: serverKeyHint(c.server_key) },
      });
    }
  });
  return { workspaceId: input.workspaceId, appId, ...made };
}

function credentials(mode: ModeName): ModeCredentials {
  return {
    app_key: newAppKey(mode),
    server_key: newServerKey(mode),
    identity_secret: newIdentitySecret(),
    inbound_secret: newInboundSecret(),
  };
}
