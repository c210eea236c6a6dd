import type { Ctx } from '../context.js';
import type { ContentBlock } from '../help/blocks.js';
import type { BotButton } from './graph.js';

// The opening a person is shown (the active one for their language, else the active one for
// every language), and the button they tapped in the version they were shown.

/** The opening the person was shown (the help bot's greeting), as the client names it. */
export interface OpeningRef {
  id: string;
  version?: number;
}

export interface OpeningShown {
  id: string;
  version: number;
  language: string | null;
  blocks: ContentBlock[];
  buttons: BotButton[];
}

/** The active opening for the language, else the one for every language; null when neither is. */
export async function openingFor(ctx: Ctx, appModeId: string, language: string): Promise<OpeningShown | null> {
  const active = await ctx.db.botOpening.findMany({
    where: { appModeId, active: true, removedAt: null, OR: [{ language }, { language: null }] },
  });
  const opening = active.find((o) => o.language === language) ?? active.find((o) => o.language === null);
  if (!opening) return null;
  const shown = await ctx.db.botOpeningVersion.findUnique({
    where: { openingId_version: { openingId: opening.id, version: opening.version } },
  });
  if (!shown) return null;
  return {
    id: opening.id,
    version: opening.version,
    language: opening.language,
    blocks: shown.blocks as unknown as ContentBlock[],
    buttons: shown.buttons as unknown as BotButton[],
  };
}

export interface TappedButton {
  /** The opening and version the button was in (the current version when the client named none). */
  opening: Required<OpeningRef>;
  button: BotButton;
}

/**
 * The button of the opening the person was shown, or null when the app-mode has no such opening,
 * version or button (a client holding something staff never saved): the conversation then starts
 * without the bot, and the team answers.
 */
export async function tappedButton(ctx: Ctx, appModeId: string, ref: OpeningRef | null, buttonId: string): Promise<TappedButton | null> {
  if (!ref) return null;
  const opening = await ctx.db.botOpening.findFirst({ where: { id: ref.id, appModeId } });
  if (!opening) return null;
  const version = ref.version ?? opening.version;
  const shown = await ctx.db.botOpeningVersion.findUnique({ where: { openingId_version: { openingId: opening.id, version } } });
  const button = (shown?.buttons as unknown as BotButton[] | undefined)?.find((b) => b.id === buttonId);
  return button ? { opening: { id: opening.id, version }, button } : null;
}
