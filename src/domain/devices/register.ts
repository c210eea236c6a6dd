import { randomUUID } from 'node:crypto';
import type { DevicePlatform } from '../../generated/prisma/client.js';
import { touchContact } from '../contacts/contacts.js';
import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { invalidField } from '../errors.js';
import { unlessErased } from '../preferences/erased.js';
import { sealToken, tokenHashOf, tokenProblem } from './tokens.js';
import { exec, sql } from '../../db/sql.js';
import { lock } from '../locks.js';

// PUT and DELETE /guest/v1/devices. The app registers its token on every start and whenever it
// changes: the same token again refreshes the device (last seen, app version, locale); a token that
// another person of the app-mode registered moves to this person (a phone changed hands), so one
// token never reaches two people, also when registrations race (one upsert on the token's key).

/** A person keeps at most this many devices; registering one more forgets the one seen longest ago. */
export const MAX_DEVICES_PER_PERSON = 20;

export interface DeviceRegistration {
  platform: DevicePlatform;
  token: string;
  appVersion?: string;
  locale?: string;
}

export function registerDevice(ctx: Ctx<GuestCaller>, device: DeviceRegistration): Promise<void> {
  const problem = tokenProblem(device.platform, device.token);
  if (problem) throw invalidField('token', problem);
  const { appModeId, externalId, sdk } = ctx.caller;
  return unlessErased(
    () =>
      transaction(ctx, async (tx) => {
        const { contact } = await touchContact(tx, externalId, { sdk });
        // Registrations of one person follow one another, so the bound below counts every device they hold.
        await lock(tx, 'devices', contact.id);
        const now = tx.clock.now();
        // A device that changes hands starts afresh for its new person: a new id and first-seen time.
        await exec(
          tx,
          sql`
          INSERT INTO device (id, app_mode_id, contact_id, platform, token_hash, token_sealed, app_version, locale, created_at, last_seen_at)
          VALUES (${randomUUID()}, ${appModeId}, ${contact.id}, ${device.platform}::"DevicePlatform", ${tokenHashOf(tx.svc, device.token)},
                  ${sealToken(tx.svc, device.token)}, ${device.appVersion ?? null}, ${device.locale ?? null}, ${now}, ${now})
          ON CONFLICT (app_mode_id, token_hash) DO UPDATE SET
            id = CASE WHEN device.contact_id = EXCLUDED.contact_id THEN device.id ELSE EXCLUDED.id END,
            created_at = CASE WHEN device.contact_id = EXCLUDED.contact_id THEN device.created_at ELSE EXCLUDED.created_at END,
            contact_id = EXCLUDED.contact_id,
            platform = EXCLUDED.platform,
            app_version = coalesce(EXCLUDED.app_version, device.app_version),
            locale = coalesce(EXCLUDED.locale, device.locale),
            last_seen_at = EXCLUDED.last_seen_at`,
        );
        await exec(
          tx,
          sql`
          DELETE FROM device WHERE id IN (
            SELECT id FROM device WHERE app_mode_id = ${appModeId} AND contact_id = ${contact.id}
            ORDER BY last_seen_at DESC, id DESC OFFSET ${MAX_DEVICES_PER_PERSON})`,
        );
      }),
    () => undefined,
  );
}

/** The person forgets one of their own devices (before signing out); a token unknown, or now another person's, changes nothing. */
export async function forgetDevice(ctx: Ctx<GuestCaller>, token: string): Promise<void> {
  const { appModeId, externalId } = ctx.caller;
  await ctx.db.device.deleteMany({ where: { appModeId, tokenHash: tokenHashOf(ctx.svc, token), contact: { appModeId, externalId } } });
}
