import type { DevicePlatform } from '../../generated/prisma/client.js';
import type { Ctx } from '../context.js';
import { openToken, tokenHashOf } from './tokens.js';

// What push sending reads and does to devices: the devices of people, their tokens opened, and
// forgetting a token a provider says is gone (APNs 410 or Unregistered, FCM UNREGISTERED, Web Push 404
// or 410). Callers check their right to the app-mode; every query is scoped by it.

export interface PushDevice {
  id: string;
  contactId: string;
  platform: DevicePlatform;
  /** The push token, opened: never log it. */
  token: string;
  appVersion: string | null;
  locale: string | null;
  lastSeenAt: Date;
}

/** The devices of these contacts of the app-mode, the most recently seen first per person. */
export async function devicesOf(ctx: Ctx, appModeId: string, contactIds: readonly string[]): Promise<PushDevice[]> {
  if (!contactIds.length) return [];
  const rows = await ctx.db.device.findMany({
    where: { appModeId, contactId: { in: [...contactIds] } },
    orderBy: [{ contactId: 'asc' }, { lastSeenAt: 'desc' }, { id: 'asc' }],
  });
  return rows.map((d) => ({
    id: d.id,
    contactId: d.contactId,
    platform: d.platform,
    token: openToken(ctx.svc, d.tokenSealed),
    appVersion: d.appVersion,
    locale: d.locale,
    lastSeenAt: d.lastSeenAt,
  }));
}

/**
 * Forgets the device of a token a provider answered is gone; answers whether one was. With
 * `goneSince` (APNs gives when the token stopped being valid) a device registered again after that
 * time is kept: the app has since handed in the token afresh.
 */
export async function forgetGoneToken(ctx: Ctx, appModeId: string, token: string, goneSince?: Date): Promise<boolean> {
  const { count } = await ctx.db.device.deleteMany({
    where: { appModeId, tokenHash: tokenHashOf(ctx.svc, token), ...(goneSince ? { lastSeenAt: { lte: goneSince } } : {}) },
  });
  return count > 0;
}
