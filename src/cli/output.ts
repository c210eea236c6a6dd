import type { ModeCredentials, CreatedApp } from '../domain/apps/create-app.js';
import type { OperatorApp } from '../domain/apps/operator-apps.js';
import type { ListedStaffUser } from '../domain/staff/staff-users.js';
import type { AppMode, ServerKey } from '../generated/prisma/client.js';

// What `crm` prints: the JSON shapes (snake_case, one object per run) and their short human forms.

export interface Printed {
  json: Record<string, unknown>;
  text: string;
}

/** One app-mode's settings, by their operator names. Secrets are never part of it. */
export function settingsJson(m: AppMode) {
  return {
    app_key: m.appKey,
    app_id: m.appId,
    mode: m.mode,
    web_origins: m.webOrigins,
    unverified_signin: m.unverifiedSignin,
    strict_data: m.strictData,
    archived: m.archived,
    switched_off: m.switchedOff,
    parts: { messenger: m.messengerOn, help: m.helpOn, inapp: m.inappOn },
    home_origin: m.homeOrigin,
    languages: m.languages,
    default_language: m.defaultLanguage,
    currency: m.currency,
    brand: { name: m.brandName, color: m.brandColor, logo_url: m.brandLogoUrl },
    link_base: m.linkBase,
    app_store_url: m.appStoreUrl,
    play_store_url: m.playStoreUrl,
    updated_at: m.updatedAt.toISOString(),
  };
}

const onOff = (b: boolean) => (b ? 'on' : 'off');
const rows = (pairs: [string, string][], indent = '  ') => {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${indent}${k.padEnd(width)}  ${v}`).join('\n');
};

export function settingsText(m: AppMode): string {
  const parts = Object.entries({ messenger: m.messengerOn, help: m.helpOn, inapp: m.inappOn })
    .filter(([, on]) => on)
    .map(([name]) => name);
  return [
    `${m.appKey} (${m.mode} mode)`,
    rows([
      ['web origins', m.webOrigins.join(', ') || '(none)'],
      ['unverified signin', onOff(m.unverifiedSignin)],
      ['strict data', onOff(m.strictData)],
      ['archived', onOff(m.archived)],
      ['switched off', onOff(m.switchedOff)],
      ['parts on', parts.join(', ') || '(none)'],
      ['home origin', m.homeOrigin ?? '(none)'],
      ['languages', `${m.languages.join(', ')} (default ${m.defaultLanguage})`],
      ['currency', m.currency],
      ['brand', `${m.brandName} ${m.brandColor}`],
    ]),
  ].join('\n');
}

export function createdAppJson(app: CreatedApp) {
  return { workspace_id: app.workspaceId, app_id: app.appId, live: { ...app.live }, test: { ...app.test } };
}

export function createdAppText(app: CreatedApp): string {
  const mode = (name: string, c: ModeCredentials) =>
    `${name}\n${rows([
      ['app key', c.app_key],
      ['server key', c.server_key],
      ['identity secret', c.identity_secret],
      ['inbound secret', c.inbound_secret],
    ])}`;
  return [
    `Created app ${app.appId} in workspace ${app.workspaceId}.`,
    'Keep the keys and secrets now: they are shown only this once.',
    mode('live', app.live),
    mode('test', app.test),
  ].join('\n');
}

/** An app as listed: its workspace and each mode's key and switches. No secret, no key hash. */
export function appJson(app: OperatorApp) {
  return {
    app_id: app.id,
    name: app.name,
    workspace: { id: app.workspace.id, name: app.workspace.name },
    created_at: app.createdAt.toISOString(),
    modes: app.modes.map((m) => ({ mode: m.mode, app_key: m.appKey, archived: m.archived, switched_off: m.switchedOff })),
  };
}

export function appListText(apps: OperatorApp[]): string {
  if (!apps.length) return 'No apps yet: "crm app create --name NAME" makes one.';
  return apps
    .map((a) => {
      const keys = a.modes.map((m) => `${m.mode} ${m.appKey}${m.archived ? ' (archived)' : ''}`).join(', ');
      return `${a.id}  ${a.name}  (workspace "${a.workspace.name}")\n  ${keys}`;
    })
    .join('\n');
}

/** What staff see of a server key: its id, hint (prefix and last four), and dates. Never the key or its hash. */
export function keyJson(k: ServerKey) {
  return { id: k.id, hint: k.hint, created_at: k.createdAt.toISOString(), revoked_at: k.revokedAt?.toISOString() ?? null };
}

export function keyListText(appKey: string, keys: ServerKey[]): string {
  if (!keys.length) return `${appKey} has no server key.`;
  return [
    `Server keys of ${appKey}:`,
    rows(
      keys.map((k) => [k.hint, `${k.id}  made ${k.createdAt.toISOString()}${k.revokedAt ? `  revoked ${k.revokedAt.toISOString()}` : ''}`]),
    ),
  ].join('\n');
}

export function appShowJson(app: OperatorApp & { serverKeys: ServerKey[] }) {
  return {
    ...appJson(app),
    modes: app.modes.map((m) => ({ ...settingsJson(m), server_keys: app.serverKeys.filter((k) => k.appModeId === m.id).map(keyJson) })),
  };
}

export function appShowText(app: OperatorApp & { serverKeys: ServerKey[] }): string {
  return [
    `${app.name} (app ${app.id}, workspace "${app.workspace.name}" ${app.workspace.id})`,
    ...app.modes.map((m) => {
      const keys = app.serverKeys.filter((k) => k.appModeId === m.id && !k.revokedAt).map((k) => k.hint);
      return `${settingsText(m)}\n${rows([['server keys', keys.join(', ') || '(none in use)']])}`;
    }),
  ].join('\n\n');
}

export function staffJson(s: ListedStaffUser) {
  return {
    staff_user_id: s.id,
    email: s.email,
    name: s.name,
    created_at: s.createdAt.toISOString(),
    workspaces: s.memberships.map((m) => ({ id: m.workspaceId, name: m.workspace.name, role: m.role })),
  };
}

export function staffListText(staff: ListedStaffUser[]): string {
  if (!staff.length) return 'No staff users yet: "crm workspace create" or "crm staff create" makes one.';
  return rows(
    staff.map((s) => [
      s.email,
      `${s.name}  ${s.id}  ${s.memberships.map((m) => `${m.role} of "${m.workspace.name}"`).join(', ') || '(no workspace)'}`,
    ]),
    '',
  );
}
