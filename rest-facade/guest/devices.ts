import { forgetDevice, registerDevice } from '../../src/domain/devices/register.js';
import { defineRoute } from '../http/route.js';
import { DeviceBody, ForgetDeviceBody } from './devices.schemas.js';

// Push devices: the app registers its push token on every start and whenever it changes, and
// forgets it before the user signs out. The token is a secret of the phone: it is never answered,
// logged or shown to staff.

const TAG = 'Devices';

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
