import { one, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { teamAddress } from '../email/sending.js';
import { inWindow, isTimeZone, localTime } from '../inapp/schedule.js';
import type { Channel, SendTiming } from './definition.js';
import { recordStep, skipped, stepBegun, stillToTake, type Done, type Visit } from './run-record.js';
import { nextOpening } from './wait-until.js';

// What a send step asks before its channel acts, for every channel alike:
//
// - Test mode: an app's test mode sends nothing from a workflow to a real person's phone or
//   mailbox. A push goes only to the app-mode's test phones, an email only to an address of one
//   of the workspace's members (the test copies' rule); anyone else is skipped, `test_mode`.
//   Notices and in-app messages, seen only inside the app, and webhooks, posted to the mode's own
//   endpoints, go as in live mode.
// - The step's sending window, on the person's own clock (their contact's time zone, else UTC):
//   outside it the step is skipped (`outside_window`) or, by default, held: the run waits at the
//   step, shown waiting until the window next opens, and the step is asked again then.

/** A send step's visit as the gate reads it. */
export interface GateVisit extends Visit {
  appModeId: string;
  workflowId: string;
  /** When the run entered the step. */
  at: string;
  step: { key: string; kind: string; channel: Channel } & SendTiming;
}

/** Go on to the channel; or the step's record (skipped); or held until the window opens. */
export type Gate = { go: true } | { done: Done } | { heldUntil: Date };

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const clockOf = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

export async function sendGate(ctx: Ctx, v: GateVisit): Promise<Gate> {
  const person = await one<{ timeZone: string | null; test: boolean; testPhone: boolean; teamAddress: boolean }>(
    ctx,
    sql`
    SELECT k.time_zone AS "timeZone", m.mode = 'test' AS test,
      m.mode = 'test' AND EXISTS (SELECT 1 FROM inapp_test_phone p WHERE p.contact_id = k.id) AS "testPhone",
      m.mode = 'test' AND k.email IS NOT NULL AND ${teamAddress(sql`m.app_id`, sql`k.email`)} AS "teamAddress"
    FROM contact k JOIN app_mode m ON m.id = k.app_mode_id
    WHERE k.id = ${v.contactId} AND k.app_mode_id = ${v.appModeId}`,
    { prepare: true },
  );
  // Gone (erased): the channel records it so.
  if (!person) return { go: true };
  if (person.test && v.step.channel === 'push' && !person.testPhone)
    return { done: await recordStep(ctx, v, skipped('test_mode', 'in test mode a workflow’s push goes only to test phones')) };
  if (person.test && v.step.channel === 'email' && !person.teamAddress)
    return {
      done: await recordStep(
        ctx,
        v,
        skipped('test_mode', 'in test mode a workflow’s email goes only to the workspace’s members’ addresses'),
      ),
    };
  const window = v.step.sendingWindow;
  if (!window) return { go: true };
  const now = ctx.clock.now();
  const local = localTime(now, person.timeZone);
  if (inWindow(window, null, local)) return { go: true };
  if (v.step.outsideWindow === 'skip')
    return {
      done: await recordStep(
        ctx,
        v,
        skipped(
          'outside_window',
          `it was ${DAYS[local.day]} ${clockOf(local.minute)} by the person’s clock (${person.timeZone && isTimeZone(person.timeZone) ? person.timeZone : 'UTC'})`,
        ),
      ),
    };
  // A visit recorded already (the activity tried again) is answered by its channel, as recorded.
  if (!(await stillToTake(ctx, v))) return { go: true };
  const until = nextOpening(now, window, person.timeZone);
  await stepBegun(ctx, v, until);
  return { heldUntil: until };
}
