import type { Prisma, ReplyTime, StartRule } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { DEFAULT_START_RULE } from '../conversations/settings.js';
import { invalid, type FieldError } from '../errors.js';
import { linkProblem } from '../help/blocks.js';
import { checkCards, type Card, type CardInput } from './cards.js';
import { MAX_FACES, workspaceMembers, type Face } from './faces.js';
import { MAX_REPLY_TIME_TEXT } from './reply-time.js';

// An app-mode's messenger settings as staff read and change them (the caller checked the right
// to): the start rule, and what the messenger home shows: the greeting, the team's faces, the
// reply time and the cards. No row means the defaults; a change names only what it changes.

export const MAX_GREETING = 200;

export interface MessengerSettings {
  appModeId: string;
  startRule: StartRule;
  greeting: string;
  faces: Face[];
  replyTime: ReplyTime | null;
  replyTimeText: string;
  cards: Card[];
  /** Null while the defaults hold. */
  updatedAt: Date | null;
}

export interface MessengerSettingsChange {
  startRule?: StartRule;
  greeting?: string;
  faces?: { staffUserId: string; avatarUrl?: string | null }[];
  /** Null: no reply time shown. */
  replyTime?: ReplyTime | null;
  replyTimeText?: string;
  cards?: CardInput[];
}

export async function messengerSettingsOf(ctx: Ctx, appModeId: string): Promise<MessengerSettings> {
  const row = await ctx.db.messengerSettings.findUnique({ where: { appModeId } });
  return {
    appModeId,
    startRule: row?.startRule ?? DEFAULT_START_RULE,
    greeting: row?.greeting ?? '',
    faces: (row?.faces ?? []) as unknown as Face[],
    replyTime: row?.replyTime ?? null,
    replyTimeText: row?.replyTimeText ?? '',
    cards: (row?.cards ?? []) as unknown as Card[],
    updatedAt: row?.updatedAt ?? null,
  };
}

export async function changeMessengerSettings(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  change: MessengerSettingsChange,
): Promise<MessengerSettings> {
  return transaction(ctx, async (tx) => {
    const before = await messengerSettingsOf(tx, appModeId);
    const errors: FieldError[] = [];
    const fail = (field: string, message: string) => errors.push({ field, message });

    const greeting = change.greeting?.trim();
    if (greeting !== undefined && greeting.length > MAX_GREETING) fail('greeting', `must be at most ${MAX_GREETING} characters`);
    const replyTimeText = change.replyTimeText?.trim();
    if (replyTimeText !== undefined && replyTimeText.length > MAX_REPLY_TIME_TEXT)
      fail('replyTimeText', `must be at most ${MAX_REPLY_TIME_TEXT} characters`);
    if ((change.replyTime !== undefined ? change.replyTime : before.replyTime) === 'stated' && !(replyTimeText ?? before.replyTimeText))
      fail('replyTimeText', 'must say the reply time when replyTime is stated');

    let faces: Face[] | undefined;
    if (change.faces) {
      if (change.faces.length > MAX_FACES) fail('faces', `must name at most ${MAX_FACES} members`);
      const { appId } = await tx.db.appMode.findUniqueOrThrow({ where: { id: appModeId }, select: { appId: true } });
      const members = await workspaceMembers(
        tx,
        appId,
        change.faces.map((f) => f.staffUserId),
      );
      const seen = new Set<string>();
      faces = change.faces.map((f, i) => {
        if (!members.has(f.staffUserId)) fail(`faces.${i}.staffUserId`, 'is not a member of the workspace');
        else if (seen.has(f.staffUserId)) fail(`faces.${i}.staffUserId`, 'is named twice');
        seen.add(f.staffUserId);
        const avatarUrl = f.avatarUrl || null;
        const problem = avatarUrl === null ? undefined : avatarUrl.startsWith('/') ? 'must be an https address' : linkProblem(avatarUrl);
        if (problem) fail(`faces.${i}.avatarUrl`, problem);
        return { staffUserId: f.staffUserId, avatarUrl };
      });
    }
    const checked = change.cards ? checkCards(change.cards) : undefined;
    if (checked) errors.push(...checked.errors);
    if (errors.length) throw invalid(errors);

    const now = tx.clock.now();
    const data = {
      ...(change.startRule !== undefined ? { startRule: change.startRule } : {}),
      ...(greeting !== undefined ? { greeting } : {}),
      ...(faces ? { faces: faces as unknown as Prisma.InputJsonValue } : {}),
      ...(change.replyTime !== undefined ? { replyTime: change.replyTime } : {}),
      ...(replyTimeText !== undefined ? { replyTimeText } : {}),
      ...(checked ? { cards: checked.cards as unknown as Prisma.InputJsonValue } : {}),
      updatedAt: now,
    };
    await tx.db.messengerSettings.upsert({ where: { appModeId }, create: { appModeId, ...data }, update: data });
    return messengerSettingsOf(tx, appModeId);
  });
}
