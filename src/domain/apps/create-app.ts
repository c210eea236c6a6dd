import { randomUUID } from 'node:crypto';
import { exec, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { invalidField, notFound } from '../errors.js';
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

/** What is wrong with an app's name, or undefined when nothing is. */
export const appNameProblem = (text: string): string | undefined =>
  !text.trim() || text.trim().length > MAX_APP_NAME ? `must be 1 to ${MAX_APP_NAME} characters` : undefined;

/** The app's name as kept, or a refusal naming `name`. */
export function checkAppName(text: string): string {
  const problem = appNameProblem(text);
  if (problem) throw invalidField('name', problem);
  return text.trim();
}

/** Renames the app (its two modes share the name); the brand names people see stay as they are. */
export async function renameApp(ctx: Ctx, appId: string, text: string): Promise<void> {
  const name = checkAppName(text);
  if (!(await exec(ctx, sql`UPDATE app SET name = ${name} WHERE id = ${appId}`))) throw notFound('No such app.');
}

/** An app with both modes, each with its app key, a server key and its secrets; in the context's transaction when it is in one. */
export async function createApp(ctx: Ctx, input: { workspaceId: string; name: string }): Promise<CreatedApp> {
  const name = checkAppName(input.name);
  const appId = randomUUID();
  const made = { live: credentials('live'), test: credentials('test') };
  const { secrets } = ctx.svc;
  const now = new Date();
  const modes = (['live', 'test'] as const).map((mode) => ({ mode, id: randomUUID(), c: made[mode] }));
  // Raw SQL, one statement: the `crm app create` command runs without loading Prisma's client.
  // One statement is one transaction (or part of the caller's).
  await exec(
    ctx,
    sql`WITH app AS (INSERT INTO app (id, workspace_id, name, created_at) VALUES (${appId}, ${input.workspaceId}, ${name}, ${now}) RETURNING id),
        modes AS (
          INSERT INTO app_mode (id, app_id, mode, app_key, identity_secret_enc, inbound_secret_enc, brand_name, updated_at)
          SELECT m.id, app.id, m.mode::"Mode", m.app_key, m.identity, m.inbound, ${name}, ${now}
          FROM app, unnest(${modes.map((m) => m.id)}::text[], ${modes.map((m) => m.mode)}::text[], ${modes.map((m) => m.c.app_key)}::text[],
            ${modes.map((m) => secrets.seal(m.c.identity_secret))}::text[], ${modes.map((m) => secrets.seal(m.c.inbound_secret))}::text[])
            AS m(id, mode, app_key, identity, inbound)
        )
        INSERT INTO server_key (id, app_mode_id, key_hash, hint, created_at)
        SELECT k.id, k.app_mode_id, k.key_hash, k.hint, ${now}
        FROM unnest(${modes.map(() => randomUUID())}::text[], ${modes.map((m) => m.id)}::text[],
          ${modes.map((m) => hashServerKey(m.c.server_key))}::text[], ${modes.map((m) => serverKeyHint(m.c.server_key))}::text[])
          AS k(id, app_mode_id, key_hash, hint)`,
  );
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
