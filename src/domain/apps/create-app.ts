import { randomUUID } from 'node:crypto';
import { transaction, type Ctx } from '../context.js';
import { invalidField } from '../errors.js';
import {
  hashServerKey,
  newAppKey,
  newIdentitySecret,
  newInboundSecret,
  newServerKey,
  serverKeyHint,
  type ModeName,
} from './credentials.js';

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

/** An app's name is also its first brand name, so it follows the brand name's rule. */
export const MAX_APP_NAME = 100;

/** The app's name as kept, or a refusal naming `name`. */
export function checkAppName(text: string): string {
  const name = text.trim();
  if (!name || name.length > MAX_APP_NAME) throw invalidField('name', `must be 1 to ${MAX_APP_NAME} characters`);
  return name;
}

/** An app with both modes, each with its app key, a server key and its secrets; in the context's transaction when it is in one. */
export async function createApp(ctx: Ctx, input: { workspaceId: string; name: string }): Promise<CreatedApp> {
  const name = checkAppName(input.name);
  const appId = randomUUID();
  const made = { live: credentials('live'), test: credentials('test') };
  const { secrets } = ctx.svc;
  await transaction(ctx, async ({ db: tx }) => {
    await tx.app.create({ data: { id: appId, workspaceId: input.workspaceId, name } });
    for (const mode of ['live', 'test'] as const) {
      const c = made[mode];
      const appModeId = randomUUID();
      await tx.appMode.create({
        data: {
          id: appModeId,
          appId,
          mode,
          appKey: c.app_key,
          identitySecretEnc: secrets.seal(c.identity_secret),
          inboundSecretEnc: secrets.seal(c.inbound_secret),
          brandName: name,
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
