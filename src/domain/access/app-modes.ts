import type { AppMode } from '../../generated/prisma/client.js';
import type { Services } from '../context.js';
import { modeOfAppKey } from '../apps/credentials.js';
import { one, rows, sql } from '../../db/sql.js';

/** Every column of app_mode as an AppMode (Prisma's names and order), for a statement of raw SQL: `SELECT ${APP_MODE_COLUMNS} FROM app_mode`. */
export const APP_MODE_COLUMNS = sql`id, app_id AS "appId", mode::text AS mode, app_key AS "appKey", identity_secret_enc AS "identitySecretEnc",
  inbound_secret_enc AS "inboundSecretEnc", previous_inbound_secret_enc AS "previousInboundSecretEnc",
  previous_inbound_until AS "previousInboundUntil", web_origins AS "webOrigins", unverified_signin AS "unverifiedSignin", strict_data AS "strictData",
  archived, switched_off AS "switchedOff", messenger_on AS "messengerOn", help_on AS "helpOn", inapp_on AS "inappOn", languages,
  default_language AS "defaultLanguage", currency, brand_name AS "brandName", brand_color AS "brandColor", brand_logo_url AS "brandLogoUrl",
  link_base AS "linkBase", app_store_url AS "appStoreUrl", play_store_url AS "playStoreUrl", home_origin AS "homeOrigin", updated_at AS "updatedAt"`;

/** The app-mode an app key names, or undefined for no such key (from memory while change notices are heard). */
export async function findAppModeByKey(svc: Services, key: string | undefined): Promise<AppMode | undefined> {
  if (!key || !modeOfAppKey(key)) return undefined;
  // Raw SQL, not Prisma: the `crm` commands that name an app key run without loading Prisma's client.
  return svc.credentials.appModeByKey(
    key,
    async () => (await one<AppMode>(svc, sql`SELECT ${APP_MODE_COLUMNS} FROM app_mode WHERE app_key = ${key}`)) ?? null,
  );
}

/** Whether some app-mode lists this origin: enough to answer a preflight, which names no app. */
export async function isAnyWebOrigin(svc: Services, origin: string): Promise<boolean> {
  return svc.credentials.anyWebOrigin(origin, async () => {
    const found = await rows<unknown>(svc, sql`SELECT 1 FROM app_mode WHERE web_origins @> ARRAY[${origin}]::text[] LIMIT 1`);
    return found.length > 0;
  });
}
