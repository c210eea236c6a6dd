import { randomUUID } from 'node:crypto';
import { Prisma, type HelpBot } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller, type TxCtx } from '../context.js';
import { invalid, type FieldError } from '../errors.js';
import { checkBot, type BotStep, type HelpBotInput } from './graph.js';
import { lock } from '../locks.js';

// Saving the help bot (the caller checked the right to): its name, its steps and its openings, at
// once as one graph. Steps are replaced as a whole; an opening keeps its id, and a save that
// changes what it shows (its paragraphs or buttons) makes its next version. An opening left out is
// removed: shown no more, its versions kept for the starts that name them. Staff read the bot
// through the staff API's planned queries.

const json = (v: unknown) => v as Prisma.InputJsonValue;

/** JSON with every object's keys in order: jsonb keeps keys in its own order, so what was saved compares equal. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v)
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);

/** One save of an app-mode's bot at a time. */
const lockBot = (tx: TxCtx, appModeId: string) => lock(tx, 'help_bot', appModeId);

export async function saveHelpBot(ctx: Ctx<StaffCaller>, appModeId: string, input: HelpBotInput): Promise<HelpBot> {
  return transaction(ctx, async (tx) => {
    await lockBot(tx, appModeId);
    const mode = await tx.db.appMode.findUniqueOrThrow({
      where: { id: appModeId },
      select: { languages: true, app: { select: { workspaceId: true } } },
    });
    const { bot, errors } = checkBot(input, { languages: mode.languages });
    errors.push(...(await teamProblems(tx, mode.app.workspaceId, bot.steps)));
    const before = await tx.db.botOpening.findMany({
      where: { appModeId, removedAt: null },
      include: { versions: { orderBy: { version: 'desc' }, take: 1 } },
    });
    const byId = new Map(before.map((o) => [o.id, o]));
    bot.openings.forEach(
      (o, i) =>
        o.id &&
        !byId.has(o.id) &&
        errors.push({ field: `openings.${i}.id`, message: 'is not an opening of this app (leave it out for a new one)' }),
    );
    if (errors.length) throw invalid(errors);

    const now = tx.clock.now();
    const saved = await tx.db.helpBot.upsert({
      where: { appModeId },
      create: { appModeId, name: bot.name, updatedAt: now },
      update: { name: bot.name, updatedAt: now },
    });
    await tx.db.botStep.deleteMany({ where: { appModeId } });
    await tx.db.botStep.createMany({
      data: bot.steps.map((s, position) => ({
        appModeId,
        key: s.key,
        position,
        blocks: json(s.blocks),
        buttons: json(s.buttons),
        question: s.question ? json(s.question) : Prisma.DbNull,
        handover: s.handover ? json(s.handover) : Prisma.DbNull,
      })),
    });
    const kept = new Set<string>();
    for (const [position, o] of bot.openings.entries()) {
      const shown = { blocks: json(o.blocks), buttons: json(o.buttons) };
      const was = o.id ? byId.get(o.id) : undefined;
      if (!was) {
        const id = randomUUID();
        await tx.db.botOpening.create({
          data: {
            id,
            appModeId,
            name: o.name,
            language: o.language,
            active: o.active,
            version: 1,
            position,
            createdAt: now,
            updatedAt: now,
            versions: { create: { version: 1, ...shown, createdAt: now } },
          },
        });
        continue;
      }
      kept.add(was.id);
      const last = was.versions[0];
      const changed = !last || canonical([last.blocks, last.buttons]) !== canonical([o.blocks, o.buttons]);
      const version = changed ? was.version + 1 : was.version;
      await tx.db.botOpening.update({
        where: { id: was.id },
        data: {
          name: o.name,
          language: o.language,
          active: o.active,
          version,
          position,
          updatedAt: now,
          ...(changed ? { versions: { create: { version, ...shown, createdAt: now } } } : {}),
        },
      });
    }
    const removed = before.filter((o) => !kept.has(o.id)).map((o) => o.id);
    if (removed.length)
      await tx.db.botOpening.updateMany({ where: { id: { in: removed } }, data: { removedAt: now, active: false, updatedAt: now } });
    return saved;
  });
}

/** A hand-over's team must be one of the workspace's teams. */
async function teamProblems(tx: TxCtx, workspaceId: string, steps: BotStep[]): Promise<FieldError[]> {
  const named = steps.flatMap((s, i) => (s.handover?.teamId ? [{ i, teamId: s.handover.teamId }] : []));
  if (!named.length) return [];
  const teams = new Set(
    (await tx.db.team.findMany({ where: { workspaceId, id: { in: named.map((n) => n.teamId) } }, select: { id: true } })).map((t) => t.id),
  );
  return named
    .filter((n) => !teams.has(n.teamId))
    .map((n) => ({ field: `steps.${n.i}.handover.teamId`, message: 'is not a team of the workspace' }));
}
