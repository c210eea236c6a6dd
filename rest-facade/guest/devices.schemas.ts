import { z } from 'zod';
import { MAX_TOKEN } from '../../src/domain/devices/tokens.js';

// A push device on the wire: its token, never answered.

const token = z
  .string()
  .min(1)
  .max(MAX_TOKEN, `must be at most ${MAX_TOKEN} characters`)
  .describe(
    `The push token, 1 to ${MAX_TOKEN} printable ASCII characters: the APNs device token (hex) on ios, the FCM registration token on android, the PushSubscription as JSON (JSON.stringify(subscription): an https endpoint and keys p256dh and auth) on web`,
  );

export const DeviceBody = z
  .object({
    platform: z.enum(['android', 'ios', 'web']),
    token,
    app_version: z
      .string()
      .min(1)
      .max(50)
      .regex(/^[\x20-\x7e]+$/, 'must be printable ASCII')
      .optional()
      .describe('For staff to tell devices apart; at most 50 characters'),
    locale: z
      .string()
      .max(35)
      .regex(/^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$/, 'must be a locale such as en, pt-BR or pt_BR')
      .optional()
      .describe("For staff to tell devices apart: a BCP 47 tag (or the platform's en_US form), at most 35 characters"),
  })
  .meta({ id: 'DeviceBody' });

export const ForgetDeviceBody = z.object({ token }).meta({ id: 'ForgetDeviceBody' });
