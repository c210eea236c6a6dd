import type { Prisma } from '../../generated/prisma/client.js';
import type { Ctx, GuestCaller } from '../context.js';
import { invalid } from '../errors.js';
import { Reader, defined } from './reader.js';
import { exec, sql } from '../../db/sql.js';

// The destinations an app declares (PUT /guest/v1/app-links): each app version reports its links
// with their digest. A link in a message's content that is a product path (`/offers/42`) is opened
// by the app only when its allow-list names it, so staff may write one only when some declared
// path of the app-mode matches it (`/offers/{offer_id}`); an https address is always allowed. A
// check-in that names a digest the service has not been sent answers `sendLinks`.

export const MAX_DECLARED_LINKS = 500;
export const MAX_DIGEST = 128;

export interface DeclaredLink {
  name: string;
  path: string;
  webUrl?: string;
  screen?: string;
}

export interface AppLinksReport {
  appVersion: string;
  digest: string;
  links: { name: string; path: string; web_url?: string; screen?: string }[];
}

/** Keeps an app version's declared links under their digest (the same digest again: the version is added). */
export async function reportAppLinks(ctx: Ctx<GuestCaller>, report: AppLinksReport): Promise<void> {
  const read = new Reader();
  const links = report.links.map((l, i) => {
    if (!isTemplate(l.path)) read.fail(`links.${i}.path`, 'must be a path beginning with / whose parameters are written {name}');
    if (l.web_url !== undefined && !/^https:\/\/[^\s]+$/.test(l.web_url)) read.fail(`links.${i}.web_url`, 'must be an https address');
    return defined({ name: l.name, path: l.path, webUrl: l.web_url, screen: l.screen });
  });
  if (!read.ok) throw invalid(read.errors);
  const now = ctx.clock.now();
  const { appModeId } = ctx.caller;
  await exec(
    ctx,
    sql`
    INSERT INTO app_link_set (app_mode_id, digest, links, app_versions, first_reported_at, last_reported_at)
    VALUES (${appModeId}, ${report.digest}, ${JSON.stringify(links)}::jsonb, ARRAY[${report.appVersion}]::text[], ${now}, ${now})
    ON CONFLICT (app_mode_id, digest) DO UPDATE SET
      app_versions = CASE WHEN ${report.appVersion} = ANY(app_link_set.app_versions) THEN app_link_set.app_versions
                          ELSE app_link_set.app_versions || ${report.appVersion}::text END,
      last_reported_at = EXCLUDED.last_reported_at`,
  );
}

/** A declared path: `/`, then segments, each literal or one `{parameter}`. */
const isTemplate = (path: string) =>
  /^\/([A-Za-z0-9._~!$&'()*+,;=:@%-]+|\{[A-Za-z_][A-Za-z0-9_]*\})?(\/([A-Za-z0-9._~!$&'()*+,;=:@%-]+|\{[A-Za-z_][A-Za-z0-9_]*\}))*\/?$/.test(
    path,
  );

const segments = (path: string) =>
  path
    .replace(/[?#].*$/, '')
    .replace(/\/$/, '')
    .split('/');

/** Whether a product path (query and fragment aside) is one the template names. */
export function matchesTemplate(template: string, path: string): boolean {
  const want = segments(template);
  const got = segments(path);
  return want.length === got.length && want.every((w, i) => (/^\{.+\}$/.test(w) ? got[i] !== '' : w === got[i]));
}

/** Every path an app-mode's apps declared, over all their versions. */
export async function declaredPaths(ctx: Ctx, appModeId: string): Promise<string[]> {
  const rows = await ctx.db.appLinkSet.findMany({ where: { appModeId }, select: { links: true } });
  return [...new Set(rows.flatMap((r) => (r.links as Prisma.JsonArray as unknown as DeclaredLink[]).map((l) => l.path)))];
}

/** The further check of a link in a message: a product path must be declared by the app. */
export const declaredLinkRule =
  (paths: readonly string[]) =>
  (link: string): string | undefined =>
    !link.startsWith('/') || paths.some((p) => matchesTemplate(p, link))
      ? undefined
      : "is a product path that none of the app's declared links allows (the app declares them with PUT /guest/v1/app-links)";

/** The declared links of an app-mode, newest report first (for staff). */
export const appLinkSets = (ctx: Ctx, appModeId: string) =>
  ctx.db.appLinkSet.findMany({ where: { appModeId }, orderBy: { lastReportedAt: 'desc' } });
