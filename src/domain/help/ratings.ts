import { isIPv6 } from 'node:net';
import { parseV6 } from '../../lib/outbound/address.js';
import { erasedAmong } from '../contacts/erasure.js';
import { transaction, type Ctx, type GuestCaller, type VisitorCaller } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { LANGUAGE_TAG, matchLanguage } from './languages.js';
import type { HelpReader } from './reader.js';
import { servedVersions } from './served.js';
import { exec, one, sql } from '../../db/sql.js';

// Was the article helpful? A signed-in user has one vote per article, which they may change; it
// is kept with the language the article was served to them in. A public vote is by the page's
// own `visitor` id and the language read, in a table of its own: a visitor id can never stand for
// a user, nor change a user's vote. A visitor id costs nothing to make, so new public votes are
// also counted per client address (as the rate limits read it, X-Forwarded-For only behind
// TRUST_PROXY; an IPv6 address by its /64 network, which one host or household holds whole), article
// and UTC day: the first MAX_ADDRESS_VOTES are kept, the rest answered alike and not kept. The address is kept only as a keyed hash of the app-mode, the day and the address,
// and past days are swept (sweepVoteAddresses).

export const MAX_VISITOR = 100;
/** New public votes kept per client address, article and UTC day. */
export const MAX_ADDRESS_VOTES = 3;

async function servedArticle(ctx: Ctx<GuestCaller | VisitorCaller>, reader: HelpReader, slug: string) {
  const [row] = await servedVersions(ctx, reader, sql`AND a.slug = ${slug}`);
  if (!row) throw notFound('No such article.');
  return row;
}

/** POST /guest/v1/articles/{slug}/rating. A person erased within 30 days is answered alike, and nothing is kept. */
export async function rateArticle(ctx: Ctx<GuestCaller>, reader: HelpReader, slug: string, helpful: boolean): Promise<void> {
  const article = await servedArticle(ctx, reader, slug);
  const { appModeId, externalId } = ctx.caller;
  await transaction(ctx, async (tx) => {
    // Holds the person against an erase until this commits.
    if ((await erasedAmong(tx, [externalId])).size) return;
    const vote = { appModeId, language: article.language, helpful, ratedAt: tx.clock.now() };
    await tx.db.helpArticleRating.upsert({
      where: { articleId_externalId: { articleId: article.article_id, externalId } },
      create: { articleId: article.article_id, externalId, ...vote },
      update: vote,
    });
  });
}

/** POST /public/v1/help/articles/{slug}/rating: `language` must be one of the app's (the default when left out). */
export async function rateArticleAsVisitor(
  ctx: Ctx<VisitorCaller>,
  reader: HelpReader,
  slug: string,
  input: { helpful: boolean; visitor: string; language?: string | undefined },
): Promise<void> {
  const language =
    input.language === undefined
      ? reader.app.defaultLanguage
      : LANGUAGE_TAG.test(input.language)
        ? matchLanguage(reader.app, input.language)
        : undefined;
  if (!language) throw invalid([{ field: 'language', message: `must be one of the app's languages (${reader.app.languages.join(', ')})` }]);
  const article = await servedArticle(ctx, reader, slug);
  const key = { articleId: article.article_id, visitor: input.visitor, language };
  await transaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const vote = { appModeId: reader.appModeId, helpful: input.helpful, ratedAt: now };
    // A visitor changing their vote adds none.
    if ((await tx.db.helpVisitorRating.updateMany({ where: key, data: vote })).count) return;
    // A new one takes a place of the address's for the day: the row's lock orders concurrent votes, so exactly MAX_ADDRESS_VOTES are kept.
    const day = now.toISOString().slice(0, 10);
    const address = tx.svc.secrets.keyedHash('help-vote-address', `${reader.appModeId}\u0000${day}\u0000${voterOf(ctx.caller.address)}`);
    const taken = await one<{ votes: number }>(
      tx,
      sql`
      INSERT INTO help_vote_address (article_id, address_hash, day, votes) VALUES (${article.article_id}, ${address}, ${day}::date, 1)
      ON CONFLICT (article_id, address_hash, day) DO UPDATE SET votes = help_vote_address.votes + 1
      RETURNING votes`,
    );
    if (!taken || taken.votes > MAX_ADDRESS_VOTES) return;
    await tx.db.helpVisitorRating.upsert({ where: { articleId_visitor_language: key }, create: { ...key, ...vote }, update: vote });
  });
}

/** A client address as votes are counted: an IPv4 address (also when mapped into IPv6), or an IPv6 address's /64 network. */
export function voterOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const b = parseV6(address.split('%')[0]!);
  return `${[0, 2, 4, 6].map((i) => ((b[i]! << 8) | b[i + 1]!).toString(16)).join(':')}::/64`;
}

/** Forgets the public votes' address counts of past days (every server process sweeps now and then). */
export async function sweepVoteAddresses(ctx: Ctx): Promise<number> {
  return exec(ctx, sql`DELETE FROM help_vote_address WHERE day < ${ctx.clock.now().toISOString().slice(0, 10)}::date`);
}
