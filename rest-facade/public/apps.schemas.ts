import { z } from 'zod';

// An app's public details, for the link page and the help site.

export const PublicApp = z
  .object({
    key: z.string(),
    name: z.string(),
    mode: z.enum(['live', 'test']),
    brand: z.object({ name: z.string(), color: z.string(), logoUrl: z.string().nullable() }),
    features: z.object({ messenger: z.boolean(), helpCenter: z.boolean(), inAppMessages: z.boolean() }),
    languages: z.array(z.string()),
    defaultLanguage: z.string(),
    linkBase: z.string().nullable(),
    appStoreUrl: z.string().nullable(),
    playStoreUrl: z.string().nullable(),
    webPushKey: z
      .string()
      .nullable()
      .describe(
        "The app-mode's VAPID public key (base64url), which a browser subscribes to Web Push with (applicationServerKey); null when staff set no VAPID keys, or the app is switched off. Never the private key",
      ),
  })
  .describe(
    "The spec gives the link page's members exactly (linkBase, appStoreUrl, playStoreUrl); the whole object follows their spelling.",
  )
  .meta({ id: 'PublicApp' });

export const AppKeyParams = z.object({ key: z.string().min(1).max(100) });
