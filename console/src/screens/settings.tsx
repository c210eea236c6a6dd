import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Command } from '../commands';
import type { Place } from '../place';
import { BASE, navigate, type Route } from '../router';

// Settings: one page each at /console/settings/<page>, listed in the navigation under "Settings"
// and in the command menu as "Go to settings: <page>". Each page's code (and the settings' own
// styles) is fetched when a page is first opened, so the inbox, where a team spends the day,
// does not load it.

type Page = ComponentType<{ place: Place }>;
const LOADERS: Record<string, () => Promise<Page>> = {
  app: () => import('./settings-app').then((m) => m.SettingsApp),
  keys: () => import('./settings-keys').then((m) => m.SettingsKeys),
  webhooks: () => import('./settings-webhooks').then((m) => m.SettingsWebhooks),
  members: () => import('./settings-members').then((m) => m.SettingsMembers),
  teams: () => import('./settings-teams').then((m) => m.SettingsTeams),
  topics: () => import('./settings-topics').then((m) => m.SettingsTopics),
  bot: () => import('./settings-bot').then((m) => m.SettingsBot),
  email: () => import('./settings-email').then((m) => m.SettingsEmail),
};
const loaded = new Map<string, Page>();

export const SETTINGS_PAGES = [
  { page: 'app', label: 'App' },
  { page: 'keys', label: 'Server keys' },
  { page: 'webhooks', label: 'Webhooks' },
  { page: 'members', label: 'Members' },
  { page: 'teams', label: 'Teams' },
  { page: 'topics', label: 'Topics' },
  { page: 'bot', label: 'Help bot' },
  { page: 'email', label: 'Email' },
] as const;

export const settingsPath = (page: string) => `${BASE}/settings/${page}`;

export const settingsCommands = (): Command[] =>
  SETTINGS_PAGES.map(({ page, label }) => ({
    id: `settings-${page}`,
    label: `Go to settings: ${label}`,
    run: () => navigate(settingsPath(page)),
  }));

export function SettingsNav({ route }: { route: Route }) {
  return (
    <>
      <h2 class="side-title">Settings</h2>
      <ul>
        {SETTINGS_PAGES.map(({ page, label }) => (
          <li key={page}>
            <a
              href={settingsPath(page)}
              aria-current={route.screen === 'settings' && route.page === page ? 'page' : undefined}
              onClick={(e) => (e.preventDefault(), navigate(settingsPath(page)))}
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </>
  );
}

export function Settings({ place, page }: { place: Place; page: string }) {
  const [shown, setShown] = useState<Page | undefined>(() => loaded.get(page));
  const [failed, setFailed] = useState(false);
  const load = LOADERS[page];
  useEffect(() => {
    if (!load || shown) return;
    load()
      .then((component) => {
        loaded.set(page, component);
        setShown(() => component);
      })
      .catch(() => setFailed(true));
  }, [page]);
  if (!load)
    return (
      <main class="empty" id="main">
        <h1>Nothing here</h1>
        <p>
          There is no such settings page. <a href={settingsPath('app')}>Go to the app’s settings</a>.
        </p>
      </main>
    );
  const Shown = shown;
  if (Shown) return <Shown place={place} />;
  return (
    <main class="empty" id="main">
      {failed ? (
        <p class="error" role="alert">
          This page could not be loaded: check the connection and open it again.
        </p>
      ) : (
        <p>Loading…</p>
      )}
    </main>
  );
}
