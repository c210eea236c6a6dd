import type { PersonalDataArea } from '../personal-data/registry.js';

// A person's devices for the export's `devices`: what they are and when they were seen, never the
// token (a secret of the phone). Erased in both modes.

export const deviceData: PersonalDataArea = {
  name: 'devices',
  tables: ['device'],
  async exportOf({ db }, { appModeId, externalId }) {
    const devices = await db.device.findMany({
      where: { appModeId, contact: { appModeId, externalId } },
      orderBy: [{ lastSeenAt: 'desc' }, { id: 'asc' }],
      select: { platform: true, appVersion: true, locale: true, createdAt: true, lastSeenAt: true },
    });
    if (!devices.length) return undefined;
    return {
      devices: devices.map((d) => ({
        platform: d.platform,
        appVersion: d.appVersion,
        locale: d.locale,
        firstSeenAt: d.createdAt.toISOString(),
        lastSeenAt: d.lastSeenAt.toISOString(),
      })),
    };
  },
  async erase({ db: tx }, { externalId, appModeIds }) {
    const { count: devices } = await tx.device.deleteMany({
      where: { appModeId: { in: appModeIds }, contact: { appModeId: { in: appModeIds }, externalId } },
    });
    return { devices };
  },
};
