import type { RefObject } from 'preact';
import { useState } from 'preact/hooks';
import type { RunRowFragment, RunStepRowFragment } from '../generated/graphql';
import { contactPath, navigate, workflowsPath } from '../router';
import { fullTime } from '../ui/time';
import { personName } from './person-panel';
import { KIND_WORDS, type StepKind } from './workflows-kinds';
import './workflows-runs.css';
import { MoreRow } from '../ui/list-status';

// Runs as a list, shared by a workflow's page (each run's person) and a person's page (each run's
// workflow): where a run stands (its state, the step it is at and since when, what it waits for and
// until when; an ended run's outcome and the step it ended at), and, opened, its steps: the "why"
// view, each visit of a step with how it went and, when skipped or failed, the reason in words and
// the line of detail (docs/areas/workflows.md, "Steps, and why each went as it did").

export const RUN_STATES = ['active', 'waiting', 'parked', 'ended'] as const;
export type RunState = (typeof RUN_STATES)[number];

export const RUN_STATE_WORDS: Record<RunState, string> = {
  active: 'Active',
  waiting: 'Waiting',
  parked: 'Parked',
  ended: 'Ended',
};

/** What each state means, beside its word. */
const RUN_STATE_HINTS: Record<RunState, string> = {
  active: 'doing a step',
  waiting: 'on a timer',
  parked: 'waiting for an event only',
  ended: 'done',
};

/** A step's outcome in words (null while the run is at it). */
const OUTCOME_WORDS: Record<string, string> = {
  passed: 'Done',
  sent: 'Sent',
  skipped: 'Skipped',
  failed: 'Failed',
  yes: 'Yes: the condition held',
  no: 'No: the condition did not hold',
  waited: 'Waited',
  event: 'The event came',
  timeout: 'Timed out',
  goal: 'The goal was reached',
  exited: 'Left',
};

/** Why a step was skipped or failed: each reason code of the service, in plain words. */
export const REASON_WORDS: Record<string, string> = {
  unchanged: 'Nothing to change: the person already had it so (the tag already there, or already absent; the value already set)',
  wrong_type: 'The value is not of the attribute’s type',
  attribute_undefined: 'The attribute is not defined, and the app takes only defined attributes (strict data)',
  attribute_not_settable: 'Not a custom attribute: a workflow cannot set it',
  too_many_tags: 'The person already holds as many tags as a person may',
  webhook_refused: 'The webhook’s receiver refused it, or never answered, until the tries ran out',
  no_webhook_secret: 'The app has no workflow webhook secret to sign the post with',
  erased: 'The person was erased',
  not_available: 'Not available yet in a workflow',
  all_off: 'The person turned everything off',
  unsubscribed: 'The person turned the topic off by this channel (or it is off unless they turn it on)',
  topic_closed: 'The topic no longer goes by this channel (archived, or the channel taken off it)',
  no_consent: 'An offers topic, and the person has not agreed to offers by this channel',
  no_device: 'The person has no device to push to (none registered, or every token gone)',
  provider_refused: 'The push provider or the mail server refused it (its answer is beside)',
  provider_unavailable: 'The push provider or the mail server asked to wait or did not answer (its answer is beside)',
  suppressed: 'The person’s email address is on the app’s suppression list (a bounce or a complaint)',
  no_address: 'The person has no email address',
  already_sent: 'The person was sent it before (an email by this version of the workflow; an in-app message by any workflow)',
  stopped: 'Staff stopped the workflow’s sending of this email',
  message_not_live: 'The in-app message is not live (a draft, paused or ended)',
  outside_schedule: 'The in-app message’s schedule is over',
  outside_window: 'Outside the step’s sending window on the person’s clock (the step skips then)',
  test_mode: 'Test mode: a workflow’s push goes only to test phones, its email only to the workspace’s members',
};

/** An ended run's outcome in words: an end step's own word, or the service's. */
const RUN_OUTCOME_WORDS: Record<string, string> = {
  goal: 'reached the goal',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** How a visit went, in words: an end step's is the run's outcome it names. */
const outcomeWords = (s: RunStepRowFragment) =>
  s.outcome === null ? 'At it now' : s.kind === 'end' ? `Ended: ${s.outcome}` : (OUTCOME_WORDS[s.outcome] ?? s.outcome);
const kindWords = (kind: string) => KIND_WORDS[kind as StepKind] ?? kind;
const reasonWords = (reason: string) => REASON_WORDS[reason] ?? reason;

function go(e: MouseEvent, path: string) {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(path);
}

/** When a time is, as the console shows it on a page. */
const At = ({ iso }: { iso: string }) => <time dateTime={iso}>{fullTime(iso)}</time>;

/**
 * A list of runs, newest first, each row with its subject (`person`: the run's person, linked to
 * their page; `workflow`: the workflow, linked to its page) and where it stands, and a button that
 * shows or hides its steps. `end`, when given, is the last item's element (read the next page when
 * it comes into view).
 */
export function RunList(props: {
  rows: RunRowFragment[];
  subject: 'person' | 'workflow';
  label: string;
  end?: RefObject<HTMLLIElement | null> | undefined;
  hasMore?: boolean;
}) {
  return (
    <ol class="run-rows" aria-label={props.label}>
      {props.rows.map((r) => (
        <RunItem key={r.id} run={r} subject={props.subject} />
      ))}
      {props.end && <MoreRow more={!!props.hasMore} end={props.end} />}
    </ol>
  );
}

function RunItem({ run, subject }: { run: RunRowFragment; subject: 'person' | 'workflow' }) {
  const [open, setOpen] = useState(false);
  const who = personName(run.contact);
  const name = subject === 'person' ? who : run.workflow.name;
  const href = subject === 'person' ? contactPath(run.contact.id) : workflowsPath(run.workflow.id);
  const stepsId = `run-steps-${run.id}`;
  return (
    <li class={`run-row run-${run.state}`} data-run={run.id}>
      <div class="run-top">
        <a href={href} onClick={(e) => go(e, href)} class="run-subject">
          {name}
        </a>
        <span class={`run-state state-${run.state}`} title={RUN_STATE_HINTS[run.state]}>
          {RUN_STATE_WORDS[run.state]}
        </span>
        <span class="quiet-text">version {run.versionNumber}</span>
        <span class="quiet-text run-started">
          started <At iso={run.startedAt} />
        </span>
      </div>
      <p class="run-where">
        <RunWhere run={run} />
      </p>
      <button type="button" class="quiet small run-why-button" aria-expanded={open} aria-controls={stepsId} onClick={() => setOpen(!open)}>
        {open ? 'Hide the steps' : 'Why: the steps'}
        <span class="visually-hidden"> of {subject === 'person' ? `${who}’s run` : `the run of ${run.workflow.name}`}</span>
      </button>
      {open && <RunSteps id={stepsId} steps={run.steps} label={`Steps of ${who}’s run of ${run.workflow.name}`} />}
    </li>
  );
}

/** Where a run stands, in a sentence: the step it is at and since when, what it waits for and until when; or how it ended. */
function RunWhere({ run }: { run: RunRowFragment }) {
  if (run.state === 'ended')
    return (
      <>
        Ended at step <code>{run.step}</code>
        {run.endedAt && (
          <>
            {' '}
            on <At iso={run.endedAt} />
          </>
        )}
        {run.outcome && (
          <>
            , outcome <strong class="run-outcome">{RUN_OUTCOME_WORDS[run.outcome] ?? run.outcome}</strong>
          </>
        )}
        .
      </>
    );
  return (
    <>
      At step <code>{run.step}</code> since <At iso={run.since} />
      {run.waitsFor && (
        <>
          , waiting for the event <code>{run.waitsFor}</code>
        </>
      )}
      {run.until && (
        <>
          {run.waitsFor ? ' or ' : ', waiting '}until <At iso={run.until} />
        </>
      )}
      .
    </>
  );
}

/** A run's steps, oldest first: each visit with its kind, times, outcome and, for a step skipped or failed, why. */
export function RunSteps(props: { id: string; steps: RunStepRowFragment[]; label: string }) {
  if (props.steps.length === 0)
    return (
      <p id={props.id} class="quiet-text">
        No step taken yet.
      </p>
    );
  return (
    <ol id={props.id} class="run-steps" aria-label={props.label}>
      {props.steps.map((s) => (
        <li key={`${s.step}-${s.visit}`} class={`run-step outcome-${s.outcome ?? 'at'}`}>
          <div class="run-step-top">
            <code>{s.step}</code> <span class="quiet-text">{kindWords(s.kind)}</span>
            {s.visit > 1 && <span class="quiet-text"> · visit {s.visit}</span>}
            <span class="run-step-outcome">{outcomeWords(s)}</span>
          </div>
          {s.reason && (
            <p class="run-step-reason">
              Why: {reasonWords(s.reason)} <span class="quiet-text">({s.reason})</span>
            </p>
          )}
          {s.detail && <p class="run-step-detail">{s.detail}</p>}
          <p class="quiet-text run-step-times">
            <At iso={s.enteredAt} />
            {s.leftAt && s.leftAt !== s.enteredAt && (
              <>
                {' '}
                to <At iso={s.leftAt} />
              </>
            )}
          </p>
        </li>
      ))}
    </ol>
  );
}
