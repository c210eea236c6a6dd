import { DEFAULT_TOKEN_SECONDS } from '../domain/access/user-tokens.js';
import { PARTS } from '../domain/apps/parts.js';
import type { SettingsPatch } from '../domain/apps/settings.js';
import type { Ctx, SystemCaller } from '../domain/context.js';
import { DomainError } from '../domain/errors.js';
import { commaList, onOff, str, UsageError, type OptionSpec, type Values } from './args.js';
import {
  appJson,
  appListText,
  appShowJson,
  appShowText,
  createdAppJson,
  createdAppText,
  keyJson,
  keyListText,
  settingsJson,
  settingsText,
  staffJson,
  staffListText,
  type Printed,
} from './output.js';

// The commands. Each one only reads its arguments (prepare: before any database is opened, so a
// bad command line touches nothing) and then calls domain functions and shapes what they return.
// A command loads the domain modules it calls when it runs (`await import`), so a run loads only
// its own: what every command loads is this file, args.ts and output.ts.

export interface Command {
  /** "group verb", as typed after `crm`. */
  name: string;
  /** Positional arguments, each required, by their usage names. */
  args: string[];
  summary: string;
  options: Record<string, OptionSpec>;
  prepare(values: Values, positionals: string[]): (ctx: Ctx<SystemCaller>) => Promise<Printed>;
}

/** How a positional argument is named in `field` of an error: APP_KEY → app_key. */
export const argField = (arg: string) => arg.toLowerCase();

export const commands: Command[] = [
  {
    name: 'workspace create',
    args: [],
    summary: 'Make a workspace and its first owner (a staff user who signs in with this email and password).',
    options: {
      name: { type: 'string', value: 'NAME', required: true, help: 'the workspace name, 1 to 100 characters' },
      'owner-email': { type: 'string', value: 'EMAIL', required: true, help: "the owner's email (not yet a staff user)" },
      'owner-password': { type: 'string', value: 'PASSWORD', required: true, help: 'at least 10 characters' },
      'owner-name': { type: 'string', value: 'NAME', help: "the owner's display name (default: the email's local part)" },
    },
    prepare(values) {
      const input = {
        name: str(values, 'name')!,
        ownerEmail: str(values, 'owner-email')!,
        ownerPassword: str(values, 'owner-password')!,
        ownerName: str(values, 'owner-name'),
      };
      return async (ctx) => {
        const { createWorkspace } = await import('../domain/staff/workspaces.js');
        const made = await createWorkspace(ctx, input);
        return {
          json: { workspace_id: made.workspaceId, owner_id: made.ownerId },
          text: `Created workspace ${made.workspaceId} with owner ${made.ownerId} (${input.ownerEmail.trim().toLowerCase()}).`,
        };
      };
    },
  },
  {
    name: 'staff create',
    args: [],
    summary: 'Make a staff user of no workspace yet, who signs in with this email and password and accepts invitations.',
    options: {
      email: { type: 'string', value: 'EMAIL', required: true, help: 'their email (not yet a staff user)' },
      password: { type: 'string', value: 'PASSWORD', required: true, help: 'at least 10 characters' },
      name: { type: 'string', value: 'NAME', help: "their display name (default: the email's local part)" },
    },
    prepare(values) {
      const input = { email: str(values, 'email')!, password: str(values, 'password')!, name: str(values, 'name') };
      return async (ctx) => {
        const { createStaffUser } = await import('../domain/staff/staff-users.js');
        const made = await createStaffUser(ctx, input);
        return {
          json: { staff_user_id: made.staffUserId, email: made.email, name: made.name },
          text: `Created staff user ${made.staffUserId} (${made.email}).`,
        };
      };
    },
  },
  {
    name: 'app create',
    args: [],
    summary: 'Make an app (live and test modes) and print its keys and secrets, shown only this once.',
    options: {
      name: { type: 'string', value: 'NAME', required: true, help: 'the app name (also its first brand name), 1 to 100 characters' },
      workspace: {
        type: 'string',
        value: 'ID',
        help: 'an existing workspace; without it the only workspace there is (refused when there are several), or a new one, "<name> workspace", with no owner when there is none',
      },
    },
    prepare(values) {
      const input = { name: str(values, 'name')!, workspaceId: str(values, 'workspace') };
      return async (ctx) => {
        const { createOperatorApp } = await import('../domain/apps/operator-apps.js');
        const app = await createOperatorApp(ctx, input);
        return { json: createdAppJson(app), text: createdAppText(app) };
      };
    },
  },
  {
    name: 'app list',
    args: [],
    summary: "List the apps: id, name, workspace, and each mode's app key. No secret is printed.",
    options: {},
    prepare() {
      return async (ctx) => {
        const { listOperatorApps } = await import('../domain/apps/operator-apps.js');
        const apps = await listOperatorApps(ctx);
        return { json: { apps: apps.map(appJson) }, text: appListText(apps) };
      };
    },
  },
  {
    name: 'app show',
    args: ['APP'],
    summary: "Show one app, named by either mode's app key or by its id: both modes' settings and server key hints. No secret is printed.",
    options: {},
    prepare(_values, [app]) {
      return async (ctx) => {
        const { requireOperatorApp } = await import('../domain/apps/operator-apps.js');
        const found = await requireOperatorApp(ctx, app!, argField('APP'));
        return { json: appShowJson(found), text: appShowText(found) };
      };
    },
  },
  {
    name: 'app set',
    args: ['APP_KEY'],
    summary: 'Change the settings of the mode APP_KEY names (app_… live, app_test_… test) and print them. With no flag, only prints them.',
    options: {
      'web-origins': {
        type: 'string',
        value: 'a,b',
        help: "the browser origins allowed (https, or http://localhost), at most 20; '' clears",
      },
      'unverified-signin': { type: 'string', value: 'on|off', help: 'allow guest sign-in without a user token' },
      'strict-data': { type: 'string', value: 'on|off', help: 'strict data mode' },
      archived: { type: 'string', value: 'on|off', help: 'archived: its keys stop working' },
      'switched-off': { type: 'string', value: 'on|off', help: 'switched off: guests are refused' },
      'home-origin': { type: 'string', value: 'URL', help: "the mode's home origin, such as https://example.com; '' clears" },
      parts: {
        type: 'string',
        value: 'messenger,help,inapp',
        help: "the parts that are on; those not listed are switched off ('' switches all off)",
      },
    },
    prepare(values, [appKey]) {
      const patch: SettingsPatch = {};
      const origins = str(values, 'web-origins');
      if (origins !== undefined) patch.webOrigins = commaList(origins);
      patch.unverifiedSignin = onOff(values, 'unverified-signin');
      patch.strictData = onOff(values, 'strict-data');
      patch.archived = onOff(values, 'archived');
      patch.switchedOff = onOff(values, 'switched-off');
      const home = str(values, 'home-origin');
      if (home !== undefined) patch.homeOrigin = home.trim() || null;
      const parts = str(values, 'parts');
      if (parts !== undefined) {
        const on = commaList(parts);
        const unknown = on.filter((p) => !Object.hasOwn(PARTS, p));
        if (unknown.length)
          throw new UsageError(
            `--parts names ${unknown.map((p) => `"${p}"`).join(', ')}; the parts are ${Object.keys(PARTS).join(', ')}`,
            'parts',
          );
        for (const [part, member] of Object.entries(PARTS)) patch[member] = on.includes(part);
      }
      for (const k of Object.keys(patch) as (keyof SettingsPatch)[]) if (patch[k] === undefined) delete patch[k];
      return async (ctx) => {
        const { requireAppModeByKey } = await import('../domain/apps/operator-apps.js');
        const mode = await requireAppModeByKey(ctx, appKey!, argField('APP_KEY'));
        const settings = Object.keys(patch).length
          ? await (await import('../domain/apps/settings.js')).updateSettings(ctx, mode.id, patch)
          : mode;
        return { json: settingsJson(settings), text: settingsText(settings) };
      };
    },
  },
  {
    name: 'key create',
    args: ['APP_KEY'],
    summary: 'Make a server key for the mode APP_KEY names; it is shown only this once (at most 20 per mode).',
    options: {},
    prepare(_values, [appKey]) {
      return async (ctx) => {
        const [{ requireAppModeByKey }, { createServerKey }] = await Promise.all([
          import('../domain/apps/operator-apps.js'),
          import('../domain/apps/server-keys.js'),
        ]);
        const mode = await requireAppModeByKey(ctx, appKey!, argField('APP_KEY'));
        const { serverKey } = await createServerKey(ctx, mode.id);
        return { json: { server_key: serverKey }, text: `Created server key ${serverKey} for ${mode.appKey} (shown only this once).` };
      };
    },
  },
  {
    name: 'key list',
    args: ['APP_KEY'],
    summary: 'List the server keys of the mode APP_KEY names: id, hint (prefix and last four), made, revoked. Never the keys.',
    options: {},
    prepare(_values, [appKey]) {
      return async (ctx) => {
        const { listServerKeys, requireAppModeByKey } = await import('../domain/apps/operator-apps.js');
        const mode = await requireAppModeByKey(ctx, appKey!, argField('APP_KEY'));
        const keys = await listServerKeys(ctx, mode.id);
        return { json: { app_key: mode.appKey, server_keys: keys.map(keyJson) }, text: keyListText(mode.appKey, keys) };
      };
    },
  },
  {
    name: 'key revoke',
    args: ['SERVER_KEY'],
    summary: 'Revoke a server key, given as the key itself. Revoking twice is safe.',
    options: {},
    prepare(_values, [serverKey]) {
      return async (ctx) => {
        const { revokeServerKey } = await import('../domain/apps/server-keys.js');
        try {
          await revokeServerKey(ctx, { serverKey: serverKey! });
        } catch (err) {
          if (err instanceof DomainError && err.code === 'not_found' && !err.errors.length)
            throw new DomainError(err.status, err.code, err.title, err.detail, [
              { field: argField('SERVER_KEY'), message: 'no such server key' },
            ]);
          throw err;
        }
        return { json: { revoked: true }, text: 'Revoked.' };
      };
    },
  },
  {
    name: 'staff list',
    args: [],
    summary: 'List the staff users: email, name, id, and their workspaces with their roles.',
    options: {},
    prepare() {
      return async (ctx) => {
        const { listStaffUsers } = await import('../domain/staff/staff-users.js');
        const staff = await listStaffUsers(ctx);
        return { json: { staff_users: staff.map(staffJson) }, text: staffListText(staff) };
      };
    },
  },
  {
    name: 'token',
    args: ['APP_KEY'],
    summary:
      'Print a user token (HS256, signed with the identity secret of the mode APP_KEY names) for the user --sub, as a backend makes them: for trying the guest API.',
    options: {
      sub: {
        type: 'string',
        value: 'ID',
        required: true,
        help: "the user's external id (as in PUT /server/v1/contacts/ID), 1 to 200 characters",
      },
      ttl: { type: 'string', value: 'SECONDS', help: `how long the token lasts (default ${DEFAULT_TOKEN_SECONDS}, at most 30 days)` },
    },
    prepare(values, [appKey]) {
      const sub = str(values, 'sub')!;
      const ttl = str(values, 'ttl');
      if (ttl !== undefined && !/^\d{1,9}$/.test(ttl)) throw new UsageError(`--ttl takes a number of seconds, not "${ttl}"`, 'ttl');
      return async (ctx) => {
        const [{ requireAppModeByKey }, { issueUserToken }] = await Promise.all([
          import('../domain/apps/operator-apps.js'),
          import('../domain/access/user-tokens.js'),
        ]);
        const mode = await requireAppModeByKey(ctx, appKey!, argField('APP_KEY'));
        const made = await issueUserToken(ctx, mode, { sub, seconds: ttl === undefined ? undefined : Number(ttl) });
        return { json: { token: made.token, expires_at: made.expiresAt.toISOString() }, text: made.token };
      };
    },
  },
];

export const findCommand = (name: string) => commands.find((c) => c.name === name);

/** The usage line of one command, such as `crm key create APP_KEY`. */
export function usageLine(c: Command): string {
  const flags = Object.entries(c.options).map(([name, o]) => {
    const flag = o.type === 'string' ? `--${name} ${o.value ?? 'VALUE'}` : `--${name}`;
    return o.required ? flag : `[${flag}]`;
  });
  return ['crm', c.name, ...c.args, ...flags, '[--json]'].join(' ');
}

export function commandHelp(c: Command): string {
  const flags = Object.entries(c.options).map(
    ([name, o]) => [`--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`, o.help] as const,
  );
  flags.push(['--json', 'print exactly one JSON object on stdout']);
  const width = Math.max(...flags.map(([f]) => f.length));
  return [`Usage: ${usageLine(c)}`, '', c.summary, '', ...flags.map(([f, h]) => `  ${f.padEnd(width)}  ${h}`)].join('\n');
}
