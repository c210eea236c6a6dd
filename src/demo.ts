import { one, sql } from './db/sql.js';
import { randomToken } from './lib/secrets.js';
import { createApp } from './domain/apps/create-app.js';
import { systemContext, type Services } from './domain/context.js';
import { createWorkspace } from './domain/staff/workspaces.js';
import { seedDemoContent } from './demo/content.js';
import { DEMO_APP, DEMO_CONTACT, DEMO_WORKSPACE } from './demo/names.js';
import { DEMO_SITE_PATH } from './demo/site.js';
import { helpSitePath } from '../rest-facade/pages/help-paths.js';

/**
 * On the first start with the embedded database (no workspace yet): a demo workspace and app with
 * content to try (src/demo/content.ts), printed once. Later starts find a workspace and do nothing.
 */
export async function seedDemo(svc: Services, baseUrl: string): Promise<string | undefined> {
  // One statement through pg, not Prisma: a start on existing data compiles no Prisma query for it.
  if ((await one<{ found: boolean }>(svc, sql`SELECT EXISTS (SELECT 1 FROM workspace) AS found`))?.found) return undefined;
  const password = randomToken(16);
  const ctx = systemContext(svc, 'demo');
  const { workspaceId } = await createWorkspace(ctx, {
    name: DEMO_WORKSPACE,
    ownerEmail: 'owner@demo.test',
    ownerPassword: password,
    ownerName: 'Demo owner',
  });
  const app = await createApp(ctx, { workspaceId, name: DEMO_APP });
  // The content is a convenience: a failure to make it leaves the app usable, and says so.
  const content = await seedDemoContent(svc, { appId: app.appId, ownerEmail: 'owner@demo.test', ownerPassword: password }).then(
    () => undefined,
    (err: unknown) => `  (the demo content could not all be made: ${err instanceof Error ? err.message : String(err)})`,
  );
  return [
    '',
    'Demo app created (shown once; keep what you need):',
    `  base address       ${baseUrl}`,
    `  live app key       ${app.live.app_key}`,
    `  test app key       ${app.test.app_key}`,
    `  live server key    ${app.live.server_key}`,
    `  identity secret    ${app.live.identity_secret}   (live mode; signs user tokens, HS256)`,
    `  staff console      ${baseUrl}/console/`,
    `  staff sign-in      owner@demo.test / ${password}   (the console, or GraphQL at ${baseUrl}/graphql)`,
    `  help site          ${baseUrl}${helpSitePath(app.live.app_key)}`,
    `  demo site          ${baseUrl}${DEMO_SITE_PATH}   (a customer's page with the web messenger, signed in as ${DEMO_CONTACT})`,
    `  demo contact       ${DEMO_CONTACT} (two conversations); grace has a ticket; the inbox has three open conversations to answer; a live banner, articles in en and fr`,
    ...(content ? [content] : []),
    '',
    'Try it:',
    `  curl -s ${baseUrl}/public/v1/apps/${app.live.app_key}`,
    `  curl -s ${baseUrl}/guest/v1/conversations -H "X-CRM-App-Key: ${app.live.app_key}" -H "Authorization: Bearer $(npm run --silent crm -- token ${app.live.app_key} --sub ${DEMO_CONTACT})"`,
    '',
  ].join('\n');
}
