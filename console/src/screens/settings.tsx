import type { Command } from '../commands';
import type { Place } from '../place';
import { BASE, navigate, type Route } from '../router';
import { SettingsApp } from './settings-app';
import { SettingsBot } from './settings-bot';
import { SettingsKeys } from './settings-keys';
import { SettingsMembers } from './settings-members';
import { SettingsTeams } from './settings-teams';
import { SettingsTopics } from './settings-topics';
import { SettingsWebhooks } from './settings-webhooks';

// Settings: one page each at /console/settings/<page>, listed in the navigation under "Settings"
// and in the command menu as "Go to settings: <page>".

export const SETTINGS_PAGES = [
  { page: 'app', label: 'App' },
  { page: 'keys', label: 'Server keys' },
  { page: 'webhooks', label: 'Webhooks' },
  { page: 'members', label: 'Members' },
  { page: 'teams', label: 'Teams' },
  { page: 'topics', label: 'Topics' },
  { page: 'bot', label: 'Help bot' },
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
  switch (page) {
    case 'app':
      return <SettingsApp place={place} />;
    case 'keys':
      return <SettingsKeys place={place} />;
    case 'webhooks':
      return <SettingsWebhooks place={place} />;
    case 'members':
      return <SettingsMembers place={place} />;
    case 'teams':
      return <SettingsTeams place={place} />;
    case 'topics':
      return <SettingsTopics place={place} />;
    case 'bot':
      return <SettingsBot place={place} />;
    default:
      return (
        <main class="empty" id="main">
          <h1>Nothing here</h1>
          <p>
            There is no such settings page. <a href={settingsPath('app')}>Go to the app’s settings</a>.
          </p>
        </main>
      );
  }
}
