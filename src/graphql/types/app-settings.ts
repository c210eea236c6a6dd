import { appModeChanges } from '../../domain/apps/app-mode-changes.js';
import { updateSettings, type SettingsPatch } from '../../domain/apps/settings.js';
import { requireAccess } from '../../domain/staff/app-access.js';
import { sessionIsLive } from '../../domain/staff/sessions.js';
import { abortable } from '../abortable.js';
import { builder } from '../builder.js';
import { sessionOf } from '../context.js';
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
    resolve: (_root, { appModeId, input }, ctx) => updateSettings(ctx.svc, appModeId, input as SettingsPatch),
  }),
);

builder.subscriptionField('appModeChanged', (t) =>
  t.field({
    type: AppMode,
    description: 'The app-mode as it is now, then again after every change to its settings, from any server process.',
    args: { appModeId: t.arg.id({ required: true }) },
    // Checked when subscribing; the subscription outlives the request's cache, so before each
    // change is sent it is checked afresh: a session signed out, or a member removed, hears no more.
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    subscribe: (_root, { appModeId }, ctx) => {
      const { staffUser, sessionId } = sessionOf(ctx);
      const allowed = async () =>
        (await sessionIsLive(ctx.svc, sessionId)) && (await requireAccess(ctx.svc, staffUser.id, { appModeId }, 'read').then(() => true, () => false));
      return abortable((signal) => appModeChanges(ctx.svc, appModeId, signal, allowed));
    },
    resolve: (mode) => mode,
  }),
);
