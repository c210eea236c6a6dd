import type { StartRule } from '../../generated/prisma/client.js';
import type { AppCaller, Ctx } from '../context.js';
import { notFound } from '../errors.js';

// An app-mode's messenger settings (messenger_settings; no row means the defaults) and the switch
// that hides the whole messenger: every messenger route answers 404 while it is off.

export const START_RULES: readonly StartRule[] = ['always', 'never', 'when_none_open'];
export const DEFAULT_START_RULE: StartRule = 'always';

/** Refuses with 404, as for a route that does not exist, when the app-mode's messenger is off. */
export function requireMessenger(ctx: Ctx<AppCaller>): void {
  if (!ctx.caller.settings.messengerOn) throw notFound('The messenger is switched off for this app.');
}

export async function startRuleOf(ctx: Ctx, appModeId: string): Promise<StartRule> {
  const row = await ctx.db.messengerSettings.findUnique({ where: { appModeId }, select: { startRule: true } });
  return row?.startRule ?? DEFAULT_START_RULE;
}

/** Sets the start rule (staff settings; the caller checked who may). */
export async function setStartRule(ctx: Ctx, appModeId: string, startRule: StartRule): Promise<StartRule> {
  const updatedAt = ctx.clock.now();
  await ctx.db.messengerSettings.upsert({
    where: { appModeId },
    create: { appModeId, startRule, updatedAt },
    update: { startRule, updatedAt },
  });
  return startRule;
}
