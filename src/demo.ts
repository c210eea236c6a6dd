import { randomToken } from './lib/secrets.js';
import { createApp } from './domain/apps/create-app.js';
import { systemContext, type Services } from './domain/context.js';
import { createWorkspace } from './domain/staff/workspaces.js';

/** On the first start with the embedded database: a demo workspace and app, printed once. */
export async function seedDemo(svc: Services, baseUrl: string): Promise<string | undefined> {
  if ((await svc.db.workspace.count()) > 0) return undefined;
  const password = randomToken(16);
  const ctx = systemContext(svc, 'demo');
  const { workspaceId } = await createWorkspace(ctx, {
    name: 'Demo workspace',
    ownerEmail: 'owner@demo.test',
    ownerPassword: password,
    ownerName: 'Demo owner',
  });
  const app = await createApp(ctx, { workspaceId, name: 'Demo app' });
  return [
    '',
    'Demo app created (shown once; keep what you need):',
    `  base address       ${baseUrl}`,
    `  live app key       ${app.live.app_key}`,
    `  test app key       ${app.test.app_key}`,
    `  live server key    ${app.live.server_key}`,
    `  identity secret    ${app.live.identity_secret}   (live mode; signs user tokens, HS256)`,
    `  staff sign-in      owner@demo.test / ${password}   (GraphQL at ${baseUrl}/graphql)`,
    '',
    'Try it:',
    `  curl -s ${baseUrl}/public/v1/apps/${app.live.app_key}`,
    '',
  ].join('\n');
}
