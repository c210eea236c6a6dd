import { z } from 'zod';
import type { AppMode } from '../../generated/prisma/client.js';
import { join, one, raw, sql } from '../../db/sql.js';
import { APP_MODE_COLUMNS } from '../access/app-modes.js';
import { sqlTransaction, type Ctx } from '../context.js';
import { invalid, notFound, type FieldError } from '../errors.js';
import { emit, inOrder } from '../outbox.js';
import { appModeState } from './app-mode-changes.js';
import { checkOrigin, checkOrigins } from './origins.js';

// The settings of one app-mode, changed by staff (GraphQL) and operators (the CLI) alike.

const httpsUrl = z
  .string()
  .url()
  .refine((u) => u.startsWith('https://'), 'must be an https address');
const language = z.string().regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'must be a BCP 47 language tag');

export const settingsPatch = z.object({
  webOrigins: z.array(z.string()).optional(),
  unverifiedSignin: z.boolean().optional(),
  strictData: z.boolean().optional(),
  archived: z.boolean().optional(),
  switchedOff: z.boolean().optional(),
  messengerOn: z.boolean().optional(),
  helpOn: z.boolean().optional(),
  inappOn: z.boolean().optional(),
  languages: z.array(language).min(1).max(50).optional(),
  defaultLanguage: language.optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD')
    .optional(),
  brandName: z.string().trim().min(1).max(100).optional(),
  brandColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be #rrggbb')
    .optional(),
  brandLogoUrl: httpsUrl.nullable().optional(),
  linkBase: httpsUrl.nullable().optional(),
  appStoreUrl: httpsUrl.nullable().optional(),
  playStoreUrl: httpsUrl.nullable().optional(),
  homeOrigin: z.string().nullable().optional(),
});
export type SettingsPatch = z.infer<typeof settingsPatch>;

export { PARTS } from './parts.js';

export async function updateSettings(ctx: Ctx, appModeId: string, patch: SettingsPatch): Promise<AppMode> {
  const parsed = settingsPatch.safeParse(patch);
  if (!parsed.success) throw invalid(parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })));
  const data = { ...parsed.data };
  const errors: FieldError[] = [];
  if (data.webOrigins) {
    const r = checkOrigins(data.webOrigins);
    if ('problems' in r) errors.push(...r.problems.map((p) => ({ field: `webOrigins.${p.index}`, message: p.problem })));
    else data.webOrigins = r.origins;
  }
  if (data.homeOrigin) {
    const r = checkOrigin(data.homeOrigin);
    if ('problem' in r) errors.push({ field: 'homeOrigin', message: r.problem });
  }
  if (errors.length) throw invalid(errors);

  // Raw SQL, not Prisma: `crm app set` runs without loading Prisma's client.
  const current = await one<{ languages: string[]; defaultLanguage: string }>(
    ctx,
    sql`SELECT languages, default_language AS "defaultLanguage" FROM app_mode WHERE id = ${appModeId}`,
  );
  if (!current) throw notFound('No such app.');
  const languages = data.languages ?? current.languages;
  const defaultLanguage = data.defaultLanguage ?? current.defaultLanguage;
  if (!languages.includes(defaultLanguage))
    throw invalid([
      { field: data.defaultLanguage ? 'defaultLanguage' : 'languages', message: 'the default language must be one of the languages' },
    ]);

  // Each setting given, by its column (the array ones typed: a list is sent as text), and the time of the change.
  const set = Object.entries(data).flatMap(([key, value]) => {
    if (value === undefined) return [];
    const column = raw(key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
    return Array.isArray(value) ? sql`${column} = ${value}::text[]` : sql`${column} = ${value}`;
  });
  return sqlTransaction(ctx, async (tx) => {
    await inOrder(tx, 'app_mode.changed', appModeId);
    const updated = await one<AppMode>(
      tx,
      sql`UPDATE app_mode SET ${join([...set, sql`updated_at = ${new Date()}`])} WHERE id = ${appModeId} RETURNING ${APP_MODE_COLUMNS}`,
    );
    if (!updated) throw notFound('No such app.');
    await emit(tx, 'app_mode.changed', { appModeId, data: appModeState(updated) });
    return updated;
  });
}
