import { rows, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { compileAudience } from './compile.js';
import { peopleFacts, type PersonRow } from './people-facts.js';
import { FIELDS, readAudience, vocabularyOf, type Rule } from './rules.js';

// How many people an audience reaches now, for staff writing a message: the app-mode's people (not
// being erased) read a page at a time in the order of its (app_mode_id, external_id) index, each
// tested by the audience's one compiled predicate (compile.ts) over the facts the check-in reads:
// the contact's fields and attributes, the event counts the rule needs (event-counts.ts) and the
// survey answers it looks for (survey-answers.ts).
// Conditions on what only a check-in says (the app's platform and version, the screen on view) are
// counted as met: the count is of the people the message may reach. Bounded: at most
// COUNT_EXAMINED people are read; beyond them the answer is not exact (`count` is then "at least",
// beside `people`, how many the app-mode holds, counted up to PEOPLE_COUNTED).

export const COUNT_EXAMINED = 20_000;
export const PEOPLE_COUNTED = 1_000_000;
const PAGE = 2_000;

export interface AudienceCount {
  /** People reached among those examined. */
  count: number;
  /** Whether every person of the app-mode was examined (else `count` is a lower bound). */
  exact: boolean;
  examined: number;
  /** The app-mode's people (not being erased): `examined` when exact, else counted up to PEOPLE_COUNTED. */
  people: number;
}

/** Fields only a check-in knows. */
const CHECKIN_ONLY = new Set<keyof typeof FIELDS>(['platform', 'app_version', 'screen']);

/** The rule with every condition on a check-in-only field met (an empty `all`); groups have no negation, so this only widens. */
function outsideCheckin(rule: Rule): Rule {
  if ('all' in rule) return { all: rule.all.map(outsideCheckin) };
  if ('any' in rule) return { any: rule.any.map(outsideCheckin) };
  return 'field' in rule && CHECKIN_ONLY.has(rule.field) ? { all: [] } : rule;
}

/** The people an audience (as staff write it; null: everyone) reaches in the app-mode now; a bad rule is refused naming its member. */
export async function countAudience(ctx: Ctx, appModeId: string, input: unknown, examine = COUNT_EXAMINED): Promise<AudienceCount> {
  const rule = readAudience(input, await vocabularyOf(ctx, appModeId, input));
  const audience = compileAudience(rule && outsideCheckin(rule));
  const { columns, factsOf } = peopleFacts(appModeId, audience, ctx.clock.now());
  let count = 0;
  let examined = 0;
  let after: string | null = null;
  for (;;) {
    const limit = Math.min(PAGE, examine - examined);
    const page: PersonRow[] = await rows<PersonRow>(
      ctx,
      sql`SELECT ${columns}
          FROM contact k
          WHERE k.app_mode_id = ${appModeId} AND k.erase_requested_at IS NULL AND (${after}::text IS NULL OR k.external_id > ${after})
          ORDER BY k.external_id LIMIT ${limit}`,
    );
    for (const p of page) {
      const facts = factsOf(p);
      if (audience.test(facts)) count++;
    }
    examined += page.length;
    if (page.length < limit) return { count, exact: true, examined, people: examined };
    if (examined >= examine) break;
    after = page.at(-1)!.external_id;
  }
  const [{ n }] = (await rows<{ n: number }>(
    ctx,
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM contact k WHERE k.app_mode_id = ${appModeId} AND k.erase_requested_at IS NULL LIMIT ${PEOPLE_COUNTED}) x`,
  )) as [{ n: number }];
  return { count, exact: n === examined, examined, people: n };
}
