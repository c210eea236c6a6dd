import { asStaff } from '../context.js';
import { appModeChanges, type AppModeChange as AppModeChangeShape } from '../../domain/apps/app-mode-changes.js';
import { updateSettings, type SettingsPatch } from '../../domain/apps/settings.js';
import type { AppMode as AppModeRow } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { liveFor } from '../subscription-access.js';
import { AppMode } from './apps.js';

// Changing an app-mode's settings, and hearing of changes live.

const AppSettingsInput = builder.inputType('AppSettingsInput', {
  description: 'Only the fields given change. Null clears the nullable addresses and the home origin.',
  fields: (t) => ({
    webOrigins: t.stringList({ description: 'Browser origins allowed to call the guest API, such as https://example.com.' }),
    unverifiedSignin: t.boolean(),
    strictData: t.boolean(),
    archived: t.boolean(),
    switchedOff: t.boolean(),
    messengerOn: t.boolean(),
    helpOn: t.boolean(),
    inappOn: t.boolean(),
    languages: t.stringList(),
    defaultLanguage: t.string(),
    currency: t.string(),
    brandName: t.string(),
    brandColor: t.string(),
    brandLogoUrl: t.string(),
    linkBase: t.string(),
    appStoreUrl: t.string(),
    playStoreUrl: t.string(),
    homeOrigin: t.string(),
  }),
});

builder.mutationField('updateAppSettings', (t) =>
  t.field({
    type: AppMode,
    args: { appModeId: t.arg.id({ required: true }), input: t.arg({ type: AppSettingsInput, required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    // GraphQL lets any optional input be null; the domain validates the patch again and refuses
    // a null where a value is needed, naming the field.
    resolve: (_root, { appModeId, input }, ctx) => updateSettings(asStaff(ctx), appModeId, input as SettingsPatch),
  }),
);

const AppModeChange = builder.objectRef<AppModeChangeShape>('AppModeChange').implement({
  description: 'One step of appModeChanged: the app-mode after a change, or as it is (reload).',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Increasing; name it as `after` to resume from here after a reconnect.' }),
    reload: t.exposeBoolean('reload', {
      description:
        'The whole state rather than the next change: the first answer without `after`, or when `after` is older than the outbox keeps (7 days).',
    }),
    // The settings as the change left them; fields beyond the settings (app, serverKeys) are read per subscriber when asked for.
    appMode: t.field({ type: AppMode, resolve: (change) => change.appMode as AppModeRow }),
  }),
});

builder.subscriptionField('appModeChanged', (t) =>
  t.field({
    type: AppModeChange,
    description:
      'The app-mode as it is now, then each change to its settings from any server process, in order. With `after` (a version it sent), each change since then first. Ends with unauthenticated, not_found or role_forbids when the session is signed out or the membership ends or changes.',
    args: { appModeId: t.arg.id({ required: true }), after: t.arg.string() },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    subscribe: (_root, { appModeId, after }, ctx) =>
      liveFor(ctx, { appModeId }, 'read', (signal) => appModeChanges(asStaff(ctx), appModeId, { after, signal })),
    resolve: (change) => change,
  }),
);
