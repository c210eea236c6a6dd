import type { InAppMessage, InAppShow } from '../../generated/prisma/client.js';
import type { NoticeSource } from '../services.js';
import { compileAudience, type CompiledAudience, type EventNeed, type SurveyNeed } from '../audiences/compile.js';
import { surveyNeedKey } from '../audiences/survey-rule.js';
import type { AttributeCondition, Rule } from '../audiences/rules.js';
import type { Ctx } from '../context.js';
import { isLarge, type Content, type Kind } from './content.js';
import type { QuietHours, SendingWindow } from './schedule.js';

// The live messages of an app-mode, compiled once and kept in memory per process: audiences as
// predicates, in answer order, with what a person's facts must hold for all of them (event counts,
// survey answers, topics). A change to a message or to the app-mode's in-app settings NOTIFYs INAPP_CHANNEL with
// the app-mode's id at commit (a trigger, whatever made it), and every process drops that
// app-mode's entry when it hears it, on its outbox LISTEN connection; the process that made the
// change drops it at once (forgetLive). Memory is trusted only while that connection is up, and a
// read that began before a notice is not kept, as for credentials. One per process
// (Services.caches.liveMessages), built by openServices on the outbox dispatcher.

export const INAPP_CHANNEL = 'crm_inapp';
const MAX_APP_MODES = 10_000;

export interface LiveMessage {
  id: string;
  kind: Kind;
  large: boolean;
  show: InAppShow;
  screens: string[];
  topicKey: string | null;
  startAt: Date | null;
  stopAt: Date | null;
  window: SendingWindow | null;
  quiet: QuietHours | null;
  variants: { key: string; weight: number; content: Content }[];
  controlWeight: number;
  audience: CompiledAudience;
  /** Shown only to the people a workflow sent it to. */
  workflowOnly: boolean;
  goal: { days: number; attribute?: CompiledAudience } | null;
}

export interface LiveMode {
  /** In answer order: priority (higher first), then the earliest to go live, then id. */
  messages: LiveMessage[];
  /** Every event count any audience reads. */
  events: EventNeed[];
  /** Every survey answer any audience looks for. */
  surveys: SurveyNeed[];
  topics: string[];
  dailyCap: number | null;
}

export const compileMessage = (m: InAppMessage): LiveMessage => {
  const goal = m.goal as { days: number; attribute?: AttributeCondition } | null;
  return {
    id: m.id,
    kind: m.kind,
    large: isLarge(m.kind),
    show: m.show,
    screens: m.screens,
    topicKey: m.topicKey,
    startAt: m.startAt,
    stopAt: m.stopAt,
    window: m.sendingWindow as SendingWindow | null,
    quiet: m.quietHours as QuietHours | null,
    variants: m.variants as unknown as LiveMessage['variants'],
    controlWeight: m.controlWeight,
    audience: compileAudience(m.audience as Rule | null),
    workflowOnly: m.workflowOnly,
    goal: goal && { days: goal.days, attribute: goal.attribute ? compileAudience(goal.attribute) : undefined },
  };
};

async function compileMode(ctx: Ctx, appModeId: string): Promise<LiveMode> {
  const [rows, settings] = await Promise.all([
    ctx.db.inAppMessage.findMany({
      where: { appModeId, state: 'live' },
      orderBy: [{ priority: 'desc' }, { liveAt: 'asc' }, { id: 'asc' }],
    }),
    ctx.db.inAppSettings.findUnique({ where: { appModeId } }),
  ]);
  const messages = rows.map(compileMessage);
  const events: EventNeed[] = [];
  for (const m of messages) {
    for (const need of [...m.audience.events, ...(m.goal?.attribute?.events ?? [])]) {
      if (!events.some((e) => e.name === need.name && e.withinDays === need.withinDays)) events.push(need);
    }
  }
  const surveys = new Map<string, SurveyNeed>();
  for (const m of messages) for (const need of m.audience.surveys) surveys.set(surveyNeedKey(need), need);
  return {
    messages,
    events,
    surveys: [...surveys.values()],
    topics: [...new Set(messages.flatMap((m) => (m.topicKey ? [m.topicKey] : [])))],
    dailyCap: settings?.dailyCap ?? null,
  };
}

declare module '../services.js' {
  interface Caches {
    liveMessages: LiveMessages;
  }
}

export class LiveMessages {
  private readonly modes = new Map<string, LiveMode>();
  private generation = 0;
  constructor(private readonly source: Pick<NoticeSource, 'onNotice' | 'listening'>) {
    source.onNotice(INAPP_CHANNEL, (appModeId) => this.forget(appModeId));
  }

  forget(appModeId: string | undefined): void {
    this.generation++;
    if (appModeId) this.modes.delete(appModeId);
    else this.modes.clear();
  }

  async of(ctx: Ctx, appModeId: string): Promise<LiveMode> {
    const serving = this.source.listening;
    const kept = serving ? this.modes.get(appModeId) : undefined;
    if (kept) return kept;
    const generation = this.generation;
    const mode = await compileMode(ctx, appModeId);
    if (serving && this.source.listening && generation === this.generation) {
      this.modes.set(appModeId, mode);
      if (this.modes.size > MAX_APP_MODES) this.modes.delete(this.modes.keys().next().value!);
    }
    return mode;
  }
}

/** The app-mode's live messages, compiled (from memory while change notices are heard). */
export const liveMode = (ctx: Ctx, appModeId: string): Promise<LiveMode> => ctx.svc.caches.liveMessages.of(ctx, appModeId);

/** After a change this process committed: its next check-in reads the messages afresh without waiting for the notice. */
export const forgetLive = (ctx: Ctx, appModeId: string): void => ctx.svc.caches.liveMessages.forget(appModeId);
