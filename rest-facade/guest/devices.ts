import { z } from 'zod';
import { forgetDevice, registerDevice } from '../../src/domain/devices/register.js';
import { MAX_TOKEN } from '../../src/domain/devices/tokens.js';
import { defineRoute } from '../http/route.js';

// Push devices: the app registers its push token on every start and whenever it changes, and
// forgets it before the user signs out. The token is a secret of the phone: it is never answered,
// logged or shown to staff.

const TAG = 'Devices';

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

export const putDevice = defineRoute({
  method: 'put',
  path: '/guest/v1/devices',
  surface: 'guest',
  tag: TAG,
  summary:
    'Registers the push token: on every start and whenever it changes. The same token again refreshes the device; a token another user registered moves to this one',
  body: DeviceBody,
  responses: { 204: { description: 'Registered' } },
  errors: [400, 401, 403, 429],
  async handle(ctx, { body }) {
    await registerDevice(ctx.state.context, {
      platform: body.platform,
      token: body.token,
      appVersion: body.app_version,
      locale: body.locale,
    });
    return { status: 204 };
  },
});

export const deleteDevice = defineRoute({
  method: 'delete',
  path: '/guest/v1/devices',
  surface: 'guest',
  tag: TAG,
  summary:
    "Forgets one of the user's push tokens: call it before the user's own sign-out, while the token still works. 204 also when it was not known",
  body: ForgetDeviceBody,
  responses: { 204: { description: 'Forgotten, or not known' } },
  errors: [400, 401, 403, 429],
  async handle(ctx, { body }) {
    await forgetDevice(ctx.state.context, body.token);
    return { status: 204 };
  },
});

export const deviceRoutes = [putDevice, deleteDevice];
