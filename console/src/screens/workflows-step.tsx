import { AudienceRules } from './audience-rules';
import { FieldSaid, invalid, Said, TextField, type Problem } from './messages-survey-fields';
import { WindowFields } from './sending-window-fields';
import {
  KIND_WORDS,
  STEP_KINDS,
  UNITS,
  WAYS,
  WRITTEN,
  type EditStep,
  type Span,
  type StepKind,
  type Unit,
  type ValueType,
  type Way,
} from './workflows-content';

// One step of a workflow in the editor, as a card: its key, its kind, the kind's members and, for
// each way on, a choice among the other steps' keys. Moved up and down and removed by buttons named
// for the step. A refusal naming the step (`definition.steps.3`: not reached, a dead end, a loop
// without a wait) is said at the top of the card; one naming a member, beside that member's field.

export interface StepProps {
  step: EditStep;
  n: number;
  steps: EditStep[];
  /** The step's member in the definition last sent (`definition.steps.3`), which refusals name. */
  at: string;
  problem: Problem | undefined;
  appModeId: string;
  onChange(patch: Partial<EditStep>): void;
  onKey(key: string): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}

const CHANNEL_WORDS = { inapp: 'In-app message', push: 'Push notification', email: 'Email', notice: 'Notice' } as const;
const VALUE_WORDS: Record<ValueType, string> = {
  string: 'Text',
  number: 'Number',
  true: 'True',
  false: 'False',
  null: 'Nothing (clear it)',
};

/** The step's name as the editor shows it: its place, its key and its kind. */
export const stepName = (s: EditStep, n: number) => `Step ${n + 1}: ${s.key || 'no key'} (${KIND_WORDS[s.kind as StepKind] ?? s.kind})`;

export function StepCard(props: StepProps) {
  const { step: s, n, steps, at, problem, onChange } = props;
  const id = (f: string) => `wf-${s.uid}-${f}`;
  const kind = s.kind as StepKind;
  const text = (member: keyof EditStep & string, label: string, field: string = member, extra: { max?: number } = {}) => (
    <TextField
      id={id(member)}
      label={label}
      value={s[member] as string}
      max={extra.max ?? 100}
      problem={problem}
      field={`${at}.${field}`}
      onInput={(v) => onChange({ [member]: v })}
    />
  );
  return (
    <fieldset class="message-screen workflow-step" data-kind={s.kind}>
      <legend>
        {stepName(s, n)}
        {n === 0 && <span class="workflow-first"> · a run starts here</span>}
      </legend>
      <span class="row-buttons">
        <button
          type="button"
          class="quiet small"
          id={id('up')}
          aria-label={`Move step ${n + 1} up`}
          disabled={n === 0}
          onClick={() => props.onMove(-1)}
        >
          ↑
        </button>
        <button
          type="button"
          class="quiet small"
          id={id('down')}
          aria-label={`Move step ${n + 1} down`}
          disabled={n === steps.length - 1}
          onClick={() => props.onMove(1)}
        >
          ↓
        </button>
        <button type="button" class="quiet small" id={id('remove')} aria-label={`Remove step ${n + 1}`} onClick={props.onRemove}>
          Remove
        </button>
      </span>
      <Said problem={problem} field={at} id={id('step')} />
      <div class="screen-row">
        <TextField
          id={id('key')}
          label="Key (a lowercase word: a-z, 0-9, _)"
          value={s.key}
          max={40}
          problem={problem}
          field={`${at}.key`}
          onInput={(v) => props.onKey(v.trim())}
        />
        <span class="survey-field">
          <label for={id('kind')}>Kind</label>
          <select
            {...invalid(problem, `${at}.kind`, id('kind'))}
            value={s.kind}
            onChange={(e) => onChange({ kind: e.currentTarget.value })}
          >
            {STEP_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_WORDS[k]}
              </option>
            ))}
            {!STEP_KINDS.includes(kind) && <option value={s.kind}>{s.kind} (unknown)</option>}
          </select>
          <FieldSaid problem={problem} field={`${at}.kind`} id={id('kind')} />
        </span>
      </div>
      <div class="screen-row">
        {kind === 'wait' && (
          <SpanField
            id={id('wait')}
            label="Wait for"
            span={s.wait}
            problem={problem}
            field={`${at}.seconds`}
            onChange={(wait) => onChange({ wait })}
          />
        )}
        {kind === 'wait_until' && (
          <span class="survey-field">
            <label for={id('time')}>Until the time of day (the person's own time zone)</label>
            <input
              type="time"
              {...invalid(problem, `${at}.time`, id('time'))}
              value={s.time}
              onInput={(e) => onChange({ time: e.currentTarget.value })}
            />
            <FieldSaid problem={problem} field={`${at}.time`} id={id('time')} />
          </span>
        )}
        {kind === 'wait_for_event' && (
          <>
            {text('event', 'Event to wait for')}
            <SpanField
              id={id('timeout-span')}
              label="For at most"
              span={s.timeout}
              problem={problem}
              field={`${at}.timeoutSeconds`}
              onChange={(timeout) => onChange({ timeout })}
            />
          </>
        )}
        {kind === 'send' && (
          <>
            <span class="survey-field">
              <label for={id('channel')}>Channel</label>
              <select
                {...invalid(problem, `${at}.channel`, id('channel'))}
                value={s.channel}
                onChange={(e) => onChange({ channel: e.currentTarget.value })}
              >
                {!(s.channel in CHANNEL_WORDS) && (
                  <option value={s.channel}>{s.channel ? `${s.channel} (unknown)` : 'Choose a channel'}</option>
                )}
                {Object.entries(CHANNEL_WORDS).map(([c, words]) => (
                  <option key={c} value={c}>
                    {words}
                  </option>
                ))}
              </select>
              <FieldSaid problem={problem} field={`${at}.channel`} id={id('channel')} />
            </span>
            {WRITTEN.includes(s.channel) ? (
              <>
                {text('title', 'Title', 'content.title', { max: 200 })}
                {text('body', 'Body', 'content.body', { max: 2000 })}
                {text('link', 'Link (a path in the app, or https)', 'content.link', { max: 2000 })}
                {text('topic', 'Topic (its key; none: only “everything off” stops it)')}
              </>
            ) : (
              text('messageId', 'Message id (the in-app message or email to send)', 'messageId', { max: 64 })
            )}
          </>
        )}
        {kind === 'webhook' && text('url', 'Address (https; posted to, signed with the app’s webhook secret)', 'url', { max: 2000 })}
        {kind === 'set_attribute' && (
          <>
            {text('attribute', 'Attribute')}
            <span class="survey-field">
              <label for={id('value-type')}>Set it to</label>
              <select
                id={id('value-type')}
                value={s.valueType}
                onChange={(e) => onChange({ valueType: e.currentTarget.value as ValueType })}
              >
                {Object.entries(VALUE_WORDS).map(([v, words]) => (
                  <option key={v} value={v}>
                    {words}
                  </option>
                ))}
              </select>
            </span>
            {(s.valueType === 'string' || s.valueType === 'number') && text('value', 'Value', 'value', { max: 1000 })}
            {s.valueType !== 'string' && s.valueType !== 'number' && (
              <FieldSaid problem={problem} field={`${at}.value`} id={id('value-type')} />
            )}
          </>
        )}
        {kind === 'tag' && (
          <>
            <span class="survey-field">
              <label for={id('action')}>Action</label>
              <select
                {...invalid(problem, `${at}.action`, id('action'))}
                value={s.action}
                onChange={(e) => onChange({ action: e.currentTarget.value })}
              >
                {s.action !== 'add' && s.action !== 'remove' && <option value={s.action}>{s.action || 'Choose'}</option>}
                <option value="add">Add the tag</option>
                <option value="remove">Remove the tag</option>
              </select>
              <FieldSaid problem={problem} field={`${at}.action`} id={id('action')} />
            </span>
            {text('tag', 'Tag')}
          </>
        )}
        {kind === 'end' && text('outcome', 'Outcome (a lowercase word the run ends with)', 'outcome', { max: 40 })}
      </div>
      {kind === 'send' && (
        <div class="workflow-window">
          <label class="check">
            <input
              type="checkbox"
              id={id('window-on')}
              checked={s.windowOn}
              onChange={(e) => onChange({ windowOn: e.currentTarget.checked })}
            />
            Only on some days and hours, in the person's own time zone
          </label>
          {s.windowOn && (
            <>
              <WindowFields
                id={(f) => id(`window-${f}`)}
                value={s.window}
                field={`${at}.sendingWindow`}
                problem={problem}
                Said={FieldSaid}
                onChange={(window) => onChange({ window })}
              />
              <span class="survey-field">
                <label for={id('outside')}>Outside them</label>
                <select
                  {...invalid(problem, `${at}.outsideWindow`, id('outside'))}
                  value={s.outside}
                  onChange={(e) => onChange({ outside: e.currentTarget.value })}
                >
                  <option value="wait">Wait until they open, then send</option>
                  <option value="skip">Skip the step (the person is not sent it)</option>
                  {s.outside !== 'wait' && s.outside !== 'skip' && <option value={s.outside}>{s.outside} (unknown)</option>}
                </select>
                <FieldSaid problem={problem} field={`${at}.outsideWindow`} id={id('outside')} />
              </span>
            </>
          )}
        </div>
      )}
      {kind === 'branch' && (
        <fieldset class="workflow-condition">
          <legend>Condition</legend>
          <Said problem={problem} field={`${at}.condition`} id={id('condition')} />
          <AudienceRules
            appModeId={props.appModeId}
            model={s.condition}
            onChange={(condition) => onChange({ condition })}
            problem={problem}
            at={`${at}.condition`}
            idPrefix={id('condition')}
            groupLabel="It holds for people who match"
            groupWords={{ all: 'All of these', any: 'Any of these' }}
            emptyWords="No condition yet: add one."
          />
        </fieldset>
      )}
      {WAYS[kind] && WAYS[kind].length > 0 && (
        <div class="screen-row workflow-ways">
          {WAYS[kind].map((w) => (
            <WayOn
              key={w.member}
              id={id(`way-${w.member}`)}
              label={w.words}
              value={s.ways[w.member]}
              self={s}
              steps={steps}
              problem={problem}
              field={`${at}.${w.member}`}
              onChange={(to) => onChange({ ways: { ...s.ways, [w.member]: to } as Record<Way, string> })}
            />
          ))}
        </div>
      )}
      {kind === 'end' && <p class="quiet-text">The run ends here.</p>}
    </fieldset>
  );
}

/** A length of time: an amount and its unit, refused as one member (`seconds`). */
function SpanField(props: { id: string; label: string; span: Span; problem: Problem | undefined; field: string; onChange(s: Span): void }) {
  const { span, id } = props;
  return (
    <span class="survey-field workflow-span">
      <span>
        <label for={id}>{props.label}</label>
        <input
          {...invalid(props.problem, props.field, id)}
          inputMode="decimal"
          value={span.amount}
          onInput={(e) => props.onChange({ ...span, amount: e.currentTarget.value })}
        />
      </span>
      <span>
        <label for={`${id}-unit`}>Unit</label>
        <select id={`${id}-unit`} value={span.unit} onChange={(e) => props.onChange({ ...span, unit: e.currentTarget.value as Unit })}>
          {UNITS.map(([u]) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </select>
      </span>
      <FieldSaid problem={props.problem} field={props.field} id={id} />
    </span>
  );
}

/** Where a way on goes: one of the other steps, by key. */
function WayOn(props: {
  id: string;
  label: string;
  value: string;
  self: EditStep;
  steps: EditStep[];
  problem: Problem | undefined;
  field: string;
  onChange(to: string): void;
}) {
  const others = props.steps.map((s, n) => ({ s, n })).filter(({ s }) => s.uid !== props.self.uid && s.key);
  const known = props.value === '' || others.some(({ s }) => s.key === props.value);
  return (
    <span class="survey-field">
      <label for={props.id}>{props.label}</label>
      <select
        {...invalid(props.problem, props.field, props.id)}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        <option value="">Choose a step</option>
        {others.map(({ s, n }) => (
          <option key={s.uid} value={s.key}>
            {stepName(s, n)}
          </option>
        ))}
        {!known && <option value={props.value}>{props.value} (no such step)</option>}
      </select>
      <FieldSaid problem={props.problem} field={props.field} id={props.id} />
    </span>
  );
}
