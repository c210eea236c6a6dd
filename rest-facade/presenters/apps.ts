import type { z } from 'zod';
import type { AppMode } from '../../src/generated/prisma/client.js';
import type { PublicApp } from '../public/apps.schemas.js';

// An app's public details: a switched-off app shows every part off.

export const presentPublicApp = (app: AppMode & { appName: string; webPushKey: string | null }): z.input<typeof PublicApp> => {
  const on = !app.switchedOff;
  return {
    key: app.appKey,
    name: app.appName,
    mode: app.mode,
    brand: { name: app.brandName, color: app.brandColor, logoUrl: app.brandLogoUrl },
    features: { messenger: on && app.messengerOn, helpCenter: on && app.helpOn, inAppMessages: on && app.inappOn },
    languages: app.languages,
    defaultLanguage: app.defaultLanguage,
    linkBase: app.linkBase,
    appStoreUrl: app.appStoreUrl,
    playStoreUrl: app.playStoreUrl,
    webPushKey: on ? app.webPushKey : null,
  };
};
