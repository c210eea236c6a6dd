import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PersonFacts } from '../audiences/compile.js';
import { eventCounter } from '../audiences/event-counts.js';
import { surveyMatcher } from '../audiences/survey-rule.js';
import type { Ctx, GuestCaller } from '../context.js';
import { tooManyRequests } from '../errors.js';
import type { Content, Kind } from './content.js';
import { checkInBeside, type Beside } from './beside.js';
import { CHECKIN_SPACING_SECONDS, readFacts, type Facts, type PersonRead, type ReceiptFact } from './facts.js';
import { liveMode, type LiveMessage, type LiveMode } from './live-messages.js';
import { CONTROL } from './message-input.js';
import { keptAnswer, recordCheckin, storeAnswer, type Answered, type ChoiceToRecord } from './record.js';
import { inSchedule, inWindow, localTime } from './schedule.js';
import { requireInApp } from './switch.js';
import { drawVariant } from './variants.js';

// POST /guest/v1/checkin: the messages this person should see now, in order. The live messages
// come compiled from memory (live.ts) and the person's facts from one statement (facts.ts); the
// choice is made here, in memory, and only what it changed is written (record.ts): a message
// answered (its message.sent), a person counted in a control group, a goal reached, a test copy
// delivered, and the answer itself when it differs from the last (always the person's first), for the
// throttled check-ins after it: those made beside a first check-in wait for its answer.
//
// The rules, in the answer's order (test copies first, then priority, then the earliest to go
// live): a message is answered to nobody who turned everything off or does not hear of its topic
// in-app; within its schedule, sending window and quiet hours in the person's zone; to its
// audience (or to whom a workflow sent it: alone for a message for workflows only); for some screens only to an app that holds messages for screens; at most once a
// session; a `once` message until it is seen, others until dismissed or completed; one large
// message (post, carousel) a session; and no more new ones a day than the daily cap, in the
// person's zone. A person drawn into the control group is counted once and never shown it.

export interface CheckinInput {
  appVersion: string;
  platform: string;
  sessionId: string;
  screen?: string;
  timeZone?: string;
  holdsForScreens?: boolean;
  linksDigest?: string;
  /** The request's Accept-Language: the person's language when their contact has none. */
  language?: string;
}

/** A message as the app gets it. */
export interface ShownMessage {
  id: string;
  kind: Kind;
  variant: string;
  test: boolean;
  screens: string[];
  content: Content;
}

export interface CheckinAnswer {
  messages: ShownMessage[];
  unread: number;
  nextCheckinSeconds: number;
  throttled: boolean;
  testPhone: boolean;
  unreadNotices: number;
  sendLinks: boolean;
}

/** What a check-in answers and keeps for the throttled ones after it. */
export type KeptAnswer = Omit<CheckinAnswer, 'throttled' | 'nextCheckinSeconds'>;

const EMPTY: KeptAnswer = { messages: [], unread: 0, testPhone: false, unreadNotices: 0, sendLinks: false };

export async function checkin(ctx: Ctx<GuestCaller>, input: CheckinInput): Promise<CheckinAnswer> {
  requireInApp(ctx);
  const mode = await liveMode(ctx, ctx.caller.appModeId);
  const beside = checkInBeside<KeptAnswer>(ctx.svc, `${ctx.caller.appModeId}:${ctx.caller.externalId}`);
  try {
    const facts = await readFacts(ctx, mode, { linksDigest: input.linksDigest });
    beside.claimed(!facts.erased && !facts.throttled ? facts.claimedAt : undefined);
    // Someone erased within the block is answered nothing, and nothing is kept.
    if (facts.erased) return { ...EMPTY, throttled: false, nextCheckinSeconds: CHECKIN_SPACING_SECONDS };
    if (facts.throttled) return await throttled(ctx, facts, beside);
    const answer = await answerAnew(ctx, mode, input, facts);
    beside.answered(keptPart(answer));
    return answer;
  } finally {
    beside.leave();
  }
}

/**
 * A check-in sooner than the spacing after the last: that one's answer. When that one is still being
 * answered, its answer is awaited: beside this one in this process, in memory; a person's first
 * check-in in another process, from the answer it keeps. Never an answer made up.
 */
async function throttled(
  ctx: Ctx<GuestCaller>,
  facts: Extract<Facts, { throttled: true }>,
  beside: Beside<KeptAnswer>,
): Promise<CheckinAnswer> {
  const left = Math.ceil((facts.lastAt.getTime() + CHECKIN_SPACING_SECONDS * 1000 - ctx.clock.now().getTime()) / 1000);
  const nextCheckinSeconds = Math.min(CHECKIN_SPACING_SECONDS, Math.max(1, left));
  const last =
    (await beside.answerOfClaim(facts.lastAt)) ??
    (facts.lastHash !== null ? facts.lastAnswer : await firstAnswer(ctx, facts.contactId, nextCheckinSeconds));
  if (last === ERASED) return { ...EMPTY, throttled: false, nextCheckinSeconds: CHECKIN_SPACING_SECONDS };
  return { ...(last as KeptAnswer), throttled: true, nextCheckinSeconds };
}

/** The check-in that claimed the slot: the messages chosen now, what they change written, the answer kept. */
async function answerAnew(
  ctx: Ctx<GuestCaller>,
  mode: LiveMode,
  input: CheckinInput,
  facts: Extract<Facts, { throttled: false }>,
): Promise<CheckinAnswer> {
  const now = ctx.clock.now();
  const { person } = facts;
  const chosen = choose(ctx, mode, person, input, now);
  const answer: KeptAnswer = {
    messages: [],
    unread: person.unread,
    testPhone: person.testPhone,
    unreadNotices: person.unreadNotices,
    sendLinks: !person.linksKnown,
  };
  const written = chosen.answered.length || chosen.controls.length || chosen.goals.length || chosen.tests.length;
  const whole = { ...answer, messages: [...chosen.tests, ...chosen.answered.map(shown)] };
  if (!written) return give(ctx, facts, whole, false);
  // One statement writes it all, and keeps this answer when everything chosen was written.
  const recorded = await recordCheckin(ctx, facts.contactId, input.sessionId, chosen, kept(whole));
  // Erased meanwhile: nothing was written or kept, and nothing is answered.
  if (recorded.erased) return { ...EMPTY, throttled: false, nextCheckinSeconds: CHECKIN_SPACING_SECONDS };
  // A test copy or a message answered by a check-in that overlapped this one is not answered twice.
  const testIds = new Set(recorded.tests);
  const messageIds = new Set(recorded.answered);
  const given = {
    ...answer,
    messages: [...chosen.tests.filter((m) => testIds.has(m.id)), ...chosen.answered.filter((a) => messageIds.has(a.message.id)).map(shown)],
  };
  return give(ctx, facts, given, recorded.kept);
}

/** An answer as the throttled check-ins after it get it: its JSON and that JSON's digest. */
function kept(answer: KeptAnswer): { json: string; hash: string } {
  const json = JSON.stringify(answer);
  return { json, hash: createHash('sha1').update(json).digest('base64') };
}

/** What of an answer a throttled one repeats. */
const keptPart = ({ messages, unread, testPhone, unreadNotices, sendLinks }: CheckinAnswer): KeptAnswer => ({
  messages,
  unread,
  testPhone,
  unreadNotices,
  sendLinks,
});

/** Answers `answer`, kept for the throttled check-ins after it unless it is kept already or the same as the last. */
async function give(
  ctx: Ctx<GuestCaller>,
  facts: { contactId: string; lastHash: string | null },
  answer: KeptAnswer,
  isKept: boolean,
): Promise<CheckinAnswer> {
  if (!isKept) {
    const { json, hash } = kept(answer);
    // The first answer is always kept: the throttled check-ins beside it wait for one.
    if (hash !== facts.lastHash) await storeAnswer(ctx, facts.contactId, json, hash);
  }
  return { ...answer, throttled: false, nextCheckinSeconds: CHECKIN_SPACING_SECONDS };
}

/** How long a throttled check-in waits for the first answer kept beside it; past it, 429 to come back when the spacing is over. */
export const FIRST_ANSWER_WAIT_MS = 5_000;
const ERASED = Symbol('erased');

/**
 * The answer of a person's first check-in, which a throttled check-in made beside it waits for
 * (polling the kept answer, a key lookup, more slowly the longer it waits): never an empty list
 * made up. Gone meanwhile: erased. None within FIRST_ANSWER_WAIT_MS (that check-in failed): 429
 * with Retry-After, the seconds until the next check-in is answered anew.
 */
async function firstAnswer(ctx: Ctx<GuestCaller>, contactId: string, retryAfter: number): Promise<unknown> {
  const deadline = Date.now() + FIRST_ANSWER_WAIT_MS;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    await sleep(pause);
    const found = await keptAnswer(ctx, contactId);
    if (!found) return ERASED;
    if (found.hash !== null) return found.answer;
    if (Date.now() + pause > deadline) throw tooManyRequests(retryAfter);
  }
}

export interface Choice extends ChoiceToRecord {
  tests: ShownMessage[];
}

const shown = ({ message, variant }: Answered): ShownMessage => ({
  id: message.id,
  kind: message.kind,
  variant,
  test: false,
  screens: message.screens,
  content: message.variants.find((v) => v.key === variant)!.content,
});

/** The person's facts as the audiences read them. */
export function personFacts(
  ctx: Ctx<GuestCaller>,
  mode: LiveMode,
  person: PersonRead,
  input: Pick<CheckinInput, 'platform' | 'appVersion' | 'screen' | 'language'>,
  now: Date,
): PersonFacts {
  const c = person.contact;
  return {
    now,
    externalId: ctx.caller.externalId,
    contact: c,
    attributes: c.attributes,
    language: c.language ?? input.language ?? null,
    platform: input.platform,
    appVersion: input.appVersion,
    screen: input.screen ?? null,
    eventCount: eventCounter(mode.events, person.eventCounts),
    surveyMatch: surveyMatcher(mode.surveys, person.surveyMatches),
  };
}

/** Whether the person is done with a message as its `show` says. */
const finished = (r: ReceiptFact, show: LiveMessage['show']) =>
  show === 'once' ? r.seen : show === 'until_dismissed' ? r.dismissed || r.completed : r.completed;

function choose(ctx: Ctx<GuestCaller>, mode: LiveMode, person: PersonRead, input: CheckinInput, now: Date): Choice {
  const facts = personFacts(
    ctx,
    mode,
    person,
    { platform: input.platform, appVersion: input.appVersion, screen: input.screen, language: input.language },
    now,
  );
  const zone = input.timeZone ?? person.contact.timeZone;
  const local = localTime(now, zone);
  const receipts = new Map(person.receipts.map((r) => [r.messageId, r]));
  const sentToday = (r: ReceiptFact | undefined) => !!r?.lastSentAt && localTime(r.lastSentAt, zone).date === local.date;
  let today = person.receipts.filter((r) => !r.control && sentToday(r)).length;
  let largeThisSession = person.receipts.some((r) => r.sessions.includes(input.sessionId) && r.kind !== 'banner');
  const holds = (screens: string[]) => !screens.length || input.holdsForScreens === true;
  const choice: Choice = { answered: [], controls: [], goals: goalsReached(mode, person, facts, receipts, now), tests: [] };

  choice.tests = person.tests
    .filter((t) => holds(t.screens))
    .map((t) => ({ id: t.id, kind: t.kind, variant: t.variant, test: true, screens: t.screens, content: t.content as Content }));
  if (person.allOff) return choice;
  for (const m of mode.messages) {
    if (!inSchedule(m, now) || !holds(m.screens) || (m.topicKey && !person.hears.has(m.topicKey))) continue;
    const r = receipts.get(m.id);
    if (r && (r.control || r.sessions.includes(input.sessionId) || finished(r, m.show))) continue;
    // A workflow that sent the person the message put them in its audience; one for workflows only has no other.
    const inAudience = person.workflowSent.has(m.id) || (!m.workflowOnly && m.audience.test(facts));
    if (!inWindow(m.window, m.quiet, local) || !inAudience) continue;
    const variant = r?.variant ?? drawVariant(m, ctx.caller.externalId);
    if (variant === CONTROL) {
      choice.controls.push({ message: m });
      continue;
    }
    // A variant staff removed since: the person keeps theirs, and is not answered another.
    if (!m.variants.some((v) => v.key === variant)) continue;
    if (m.large && largeThisSession) continue;
    const again = sentToday(r);
    if (mode.dailyCap !== null && !again && today >= mode.dailyCap) continue;
    if (!again) today++;
    if (m.large) largeThisSession = true;
    choice.answered.push({ message: m, variant });
  }
  return choice;
}

/** Messages whose goal the person reached: by an event (read with the facts) or by an attribute condition now, within the goal's days. */
function goalsReached(mode: LiveMode, person: PersonRead, facts: PersonFacts, receipts: Map<string, ReceiptFact>, now: Date): string[] {
  const reached = new Set(person.goalsByEvent);
  for (const m of mode.messages) {
    const r = receipts.get(m.id);
    const attribute = m.goal?.attribute;
    if (!attribute || !r || r.goalReached || !r.goalFrom) continue;
    if (now.getTime() <= r.goalFrom.getTime() + m.goal!.days * 86_400_000 && attribute.test(facts)) reached.add(m.id);
  }
  return [...reached];
}
