import { builder, connectionType } from '../builder.js';

// A person's push devices as staff see them: what they are and when they were last seen, to tell
// them apart. Never the token, which is a secret of the phone.

const DevicePlatform = builder.enumType('DevicePlatform', { values: ['android', 'ios', 'web'] as const });

const Device = builder.prismaObject('Device', {
  description: 'A push device of a person (never its token).',
  fields: (t) => ({
    id: t.exposeID('id'),
    platform: t.expose('platform', { type: DevicePlatform }),
    appVersion: t.exposeString('appVersion', { nullable: true }),
    locale: t.exposeString('locale', { nullable: true }),
    firstSeenAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was first registered by this person.' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', description: 'The last registration: the app registers on every start.' }),
  }),
});

const DeviceConnection = connectionType(Device, 'Device');

builder.prismaObjectFields('Contact', (t) => ({
  devices: t.relatedConnection(
    'devices',
    {
      cursor: 'id',
      description: 'Their push devices (at most 20), the most recently seen first.',
      query: { orderBy: [{ lastSeenAt: 'desc' }, { id: 'asc' }] },
    },
    DeviceConnection,
  ),
}));
