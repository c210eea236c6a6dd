import type { ModeCredentials, CreatedApp } from '../domain/apps/create-app.js';
import type { AppMode } from '../generated/prisma/client.js';

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
