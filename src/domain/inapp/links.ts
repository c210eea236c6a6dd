import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { invalid } from '../errors.js';
import { lock } from '../locks.js';
import { Reader, defined } from './reader.js';
import { exec, rows, sql } from '../../db/sql.js';

// The destinations an app declares (PUT /guest/v1/app-links): each app version reports its links
// with their digest. A link in a message's content that is a product path (`/offers/42`) is opened
// by the app only when its allow-list names it, so staff may write one only when some declared
// path of the app-mode matches it (`/offers/{offer_id}`); an https address is always allowed. A
// check-in that names a digest the service has not been sent answers `sendLinks`.

export const MAX_DECLARED_LINKS = 200;
/** A report's links, as JSON in UTF-8, at most this many bytes. */
export const MAX_DECLARED_LINKS_BYTES = 128 * 1024;
export const MAX_DIGEST = 128;
/** The digests (link sets) an app-mode keeps: the ones reported last; a new one drops the oldest. */
export const MAX_LINK_SETS = 20;
/** The app versions a link set names: the ones reported last; a new one drops the oldest. */
export const MAX_LINK_SET_VERSIONS = 20;

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

/** The bytes of a report's links as JSON, which MAX_DECLARED_LINKS_BYTES bounds. */
export const linksBytes = (links: readonly unknown[]) => Buffer.byteLength(JSON.stringify(links));

/**
 * Keeps an app version's declared links under their digest (the same digest again: the version is
 * named last), within the app-mode's bounds: the MAX_LINK_SETS digests reported last, each naming
 * the MAX_LINK_SET_VERSIONS app versions reported last. A digest already kept is touched in one
 * statement (the row's own lock orders its versions), so the devices of a new release reporting
 * the same digest at once do not wait on one another; a new digest is added and the one reported
 * longest ago dropped under the app-mode's lock, so the bound holds however many come at once.
 */
export async function reportAppLinks(ctx: Ctx<GuestCaller>, report: AppLinksReport): Promise<void> {
  const read = new Reader();
  const links = report.links.map((l, i) => {
    if (!isTemplate(l.path)) read.fail(`links.${i}.path`, 'must be a path beginning with / whose parameters are written {name}');
    if (l.web_url !== undefined && !/^https:\/\/[^\s]+$/.test(l.web_url)) read.fail(`links.${i}.web_url`, 'must be an https address');
    return defined({ name: l.name, path: l.path, webUrl: l.web_url, screen: l.screen });
  });
  if (!read.ok) throw invalid(read.errors);
  const { appModeId } = ctx.caller;
  const { appVersion, digest } = report;
  const named = sql`(array_remove(app_link_set.app_versions, ${appVersion}::text) || ${appVersion}::text)`;
  const touch = sql`app_versions = ${named}[greatest(cardinality(${named}) - ${MAX_LINK_SET_VERSIONS - 1}, 1):],
        last_reported_at = greatest(app_link_set.last_reported_at, ${ctx.clock.now()}),
        report_seq = nextval(pg_get_serial_sequence('app_link_set', 'report_seq'))`;
  if (await exec(ctx, sql`UPDATE app_link_set SET ${touch} WHERE app_mode_id = ${appModeId} AND digest = ${digest}`)) return;
  await transaction(ctx, async (tx) => {
    await lock(tx, 'app-links', appModeId);
    const now = tx.clock.now();
    await exec(
      tx,
      sql`
      INSERT INTO app_link_set (app_mode_id, digest, links, paths, app_versions, first_reported_at, last_reported_at)
      VALUES (${appModeId}, ${digest}, ${JSON.stringify(links)}::jsonb, ${[...new Set(links.map((l) => l.path))]}::text[],
              ARRAY[${appVersion}]::text[], ${now}, ${now})
      ON CONFLICT (app_mode_id, digest) DO UPDATE SET ${touch}`,
    );
    await exec(
      tx,
      sql`
      DELETE FROM app_link_set WHERE app_mode_id = ${appModeId} AND digest IN (
        SELECT digest FROM app_link_set WHERE app_mode_id = ${appModeId} AND digest <> ${digest}
        ORDER BY report_seq DESC OFFSET ${MAX_LINK_SETS - 1})`,
    );
  });
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

/** How many segments a path has, as `segments` counts them. */
const depthOf = (path: string) => segments(path).length;

/**
 * The paths an app-mode's kept link sets declare that could match one of these product paths
 * (those as deep), read from the sets' `paths`, never their links; nothing is read for no path.
 */
export async function declaredPaths(ctx: Ctx, appModeId: string, links: readonly string[]): Promise<string[]> {
  const depths = [...new Set(links.filter((l) => l.startsWith('/')).map(depthOf))];
  if (!depths.length) return [];
  const stripped = sql`regexp_replace(p.path, '/$', '')`;
  const found = await rows<{ path: string }>(
    ctx,
    sql`
    SELECT DISTINCT p.path FROM app_link_set s CROSS JOIN LATERAL unnest(s.paths) AS p(path)
    WHERE s.app_mode_id = ${appModeId} AND length(${stripped}) - length(replace(${stripped}, '/', '')) + 1 = ANY(${depths}::int[])`,
  );
  return found.map((r) => r.path);
}

/** The further check of a link in a message: a product path must be declared by the app. */
export const declaredLinkRule =
  (paths: readonly string[]) =>
  (link: string): string | undefined =>
    !link.startsWith('/') || paths.some((p) => matchesTemplate(p, link))
      ? undefined
      : "is a product path that none of the app's declared links allows (the app declares them with PUT /guest/v1/app-links)";
