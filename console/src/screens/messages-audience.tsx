import { useEffect, useRef, useState } from 'preact/hooks';
import type { InAppMessagePageFragment } from '../generated/graphql';
import { AudienceRules } from './audience-rules';
import { AudienceReach } from './messages-reach';
import { useMessageChange } from './messages-change';
import { audienceOf, modelOf, type Model } from './messages-content';
import { FieldError, FormProblem, invalid } from './settings-common';
import { WindowFields } from './sending-window-fields';
import { WORKING_HOURS, type WindowValue } from './sending-window';

// A message's audience, edited as conditions (audience-rules.tsx: on the person's attributes, own
// fields and answers to a survey, all or any of them; a rule the rows cannot hold kept as written),
// the people it reaches counted as the conditions change (AudienceReach). A message may be for
// workflows only: then only the people a workflow's send step sends it to see it.

export function AudienceEditor(props: { m: InAppMessagePageFragment; onSaved(m: InAppMessagePageFragment): void; onCancel(): void }) {
  const [model, setModel] = useState<Model>(() => modelOf(props.m.audience));
  const [workflowOnly, setWorkflowOnly] = useState(props.m.workflowOnly);
  const { problem, busy, change } = useMessageChange(props.m.id, props.onSaved);
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => first.current?.focus(), []);
  const audience = audienceOf(model);

  return (
    <form
      class="message-audience-form"
      aria-label="Change the audience"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        await change(() => ({ audience, workflowOnly }));
      }}
    >
      <FormProblem problem={problem} fields={['audience']} />
      <label class="check">
        <input type="checkbox" checked={workflowOnly} onChange={(e) => setWorkflowOnly(e.currentTarget.checked)} />
        Only people a workflow sends it to
      </label>
      <AudienceRules
        appModeId={props.m.appModeId}
        model={model}
        onChange={setModel}
        problem={problem}
        at="audience"
        groupLabel="Who sees it"
        first={first}
      />
      <AudienceReach appModeId={props.m.appModeId} audience={audience} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save the audience
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

// When a message is answered: its schedule (start and stop, in the console's time zone, sent as
// times) and its sending window (days of the week and hours, in the person's own time zone);
// empty fields clear them. Refusals are shown beside the field they name (`stopAt`, `sendingWindow.to`).

const pad = (n: number) => String(n).padStart(2, '0');
/** An ISO time as a datetime-local field's value, in this browser's zone. */
const localField = (iso: string | null | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

export function ScheduleEditor(props: { m: InAppMessagePageFragment; onSaved(m: InAppMessagePageFragment): void; onCancel(): void }) {
  const w = props.m.sendingWindow;
  const [startAt, setStartAt] = useState(localField(props.m.startAt));
  const [stopAt, setStopAt] = useState(localField(props.m.stopAt));
  const [windowOn, setWindowOn] = useState(!!w);
  const [window, setWindow] = useState<WindowValue>(w ? { days: w.days, from: w.from, to: w.to } : WORKING_HOURS);
  const { problem, busy, change } = useMessageChange(props.m.id, props.onSaved);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <form
      class="message-when-form"
      aria-label="Change when it is shown"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        await change(() => ({
          startAt: startAt ? new Date(startAt).toISOString() : null,
          stopAt: stopAt ? new Date(stopAt).toISOString() : null,
          sendingWindow: windowOn ? window : null,
        }));
      }}
    >
      <FormProblem problem={problem} fields={['startAt', 'stopAt', 'sendingWindow']} />
      <span>
        <label for="when-start">Starts (empty: once live)</label>
        <input
          ref={first}
          type="datetime-local"
          {...invalid(problem, 'startAt', 'when-start')}
          value={startAt}
          onInput={(e) => setStartAt(e.currentTarget.value)}
        />
        <FieldError problem={problem} field="startAt" id="when-start" />
      </span>
      <span>
        <label for="when-stop">Stops (empty: until ended)</label>
        <input
          type="datetime-local"
          {...invalid(problem, 'stopAt', 'when-stop')}
          value={stopAt}
          onInput={(e) => setStopAt(e.currentTarget.value)}
        />
        <FieldError problem={problem} field="stopAt" id="when-stop" />
      </span>
      <label class="check">
        <input type="checkbox" checked={windowOn} onChange={(e) => setWindowOn(e.currentTarget.checked)} />
        Only on some days and hours, in the person's own time zone
      </label>
      {windowOn && (
        <WindowFields
          id={(f) => `when-${f}`}
          value={window}
          field="sendingWindow"
          problem={problem}
          Said={FieldError}
          onChange={setWindow}
        />
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save when
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
