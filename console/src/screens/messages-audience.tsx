import { useEffect, useRef, useState } from 'preact/hooks';
import { request } from '../api/request';
import { AudienceAttributesDocument, type InAppMessagePageFragment } from '../generated/graphql';
import { fitted, SurveyConditionRow, useAudienceSurveys } from './messages-audience-survey';
import { AudienceReach } from './messages-reach';
import { useMessageChange } from './messages-change';
import { audienceOf, FIELD_TYPES, modelOf, nextRowKey, OPS, OP_WORDS, type Model, type Row } from './messages-content';
import { FieldError, FormProblem, invalid } from './settings-common';

// A message's audience (src/domain/audiences: { all | any: [rules] }, a condition being
// { attribute | field, op, value } or { event, … }), edited as a list of conditions on the
// person's attributes and own fields and on their answers to a survey (messages-audience-survey.tsx),
// all or any of them; a rule the editor has no row for (an event condition, a nested group) is kept
// as written, shown as JSON, and sent back unchanged. The people it reaches are counted as the
// conditions change (AudienceReach).

export function AudienceEditor(props: { m: InAppMessagePageFragment; onSaved(m: InAppMessagePageFragment): void; onCancel(): void }) {
  const [model, setModel] = useState<Model>(() => modelOf(props.m.audience));
  const [attributes, setAttributes] = useState<{ name: string; type: string }[]>([]);
  const { problem, busy, change } = useMessageChange(props.m.id, props.onSaved);
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    first.current?.focus();
    request(AudienceAttributesDocument, { appModeId: props.m.appModeId })
      .then(({ attributeDefinitions }) => setAttributes(attributeDefinitions.edges.map((e) => e.node)))
      .catch(() => setAttributes([]));
  }, []);
  const typeOf = (subject: string) =>
    subject.startsWith('field:')
      ? FIELD_TYPES[subject.slice(6)]!
      : (attributes.find((a) => `attribute:${a.name}` === subject)?.type ??
        model.rows.find((r) => r.subject === subject)?.type ??
        'string');
  const setRow = (key: number, patch: Partial<Row>) =>
    setModel({ ...model, rows: model.rows.map((r) => (r.key === key ? { ...r, ...patch } : r)) });
  const { surveys, loaded } = useAudienceSurveys(
    props.m.appModeId,
    model.surveys.map((r) => r.survey),
  );
  const audience = audienceOf(model);
  const base = (i: number) => `audience.${model.group}.${i}`;

  return (
    <form
      class="message-audience-form"
      aria-label="Change the audience"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        await change(() => ({ audience }));
      }}
    >
      <FormProblem problem={problem} fields={['audience']} />
      <label for="aud-group">Who sees it</label>
      <select
        id="aud-group"
        ref={first}
        value={model.group}
        onChange={(e) => setModel({ ...model, group: e.currentTarget.value as 'all' | 'any' })}
      >
        <option value="all">People who match all of these</option>
        <option value="any">People who match any of these</option>
      </select>
      {model.rows.length === 0 && model.surveys.length === 0 && model.kept.length === 0 && (
        <p class="quiet-text">No condition: everyone.</p>
      )}
      <ol class="audience-rows">
        {model.rows.map((r, i) => {
          const id = (f: string) => `aud-${r.key}-${f}`;
          const ops = OPS[r.type] ?? OPS.string!;
          return (
            <li key={r.key}>
              <span>
                <label for={id('subject')}>Condition {i + 1}</label>
                <select
                  {...invalid(problem, `${base(i)}.attribute`, id('subject'))}
                  value={r.subject}
                  onChange={(e) => {
                    const subject = e.currentTarget.value;
                    const type = typeOf(subject);
                    setRow(r.key, { subject, type, op: (OPS[type] ?? OPS.string!).includes(r.op) ? r.op : OPS[type]![0]! });
                  }}
                >
                  <optgroup label="Attributes">
                    {attributes.map((a) => (
                      <option key={a.name} value={`attribute:${a.name}`}>
                        {a.name}
                      </option>
                    ))}
                    {r.subject.startsWith('attribute:') && !attributes.some((a) => `attribute:${a.name}` === r.subject) && (
                      <option value={r.subject}>{r.subject.slice(10)}</option>
                    )}
                  </optgroup>
                  <optgroup label="The person">
                    {Object.keys(FIELD_TYPES).map((f) => (
                      <option key={f} value={`field:${f}`}>
                        {f.replace(/_/g, ' ')}
                      </option>
                    ))}
                  </optgroup>
                </select>
                <FieldError problem={problem} field={`${base(i)}.attribute`} id={id('subject')} />
              </span>
              <span>
                <label for={id('op')}>Operator</label>
                <select
                  {...invalid(problem, `${base(i)}.op`, id('op'))}
                  value={r.op}
                  onChange={(e) => setRow(r.key, { op: e.currentTarget.value })}
                >
                  {ops.map((op) => (
                    <option key={op} value={op}>
                      {OP_WORDS[op] ?? op}
                    </option>
                  ))}
                  {!ops.includes(r.op) && <option value={r.op}>{r.op}</option>}
                </select>
                <FieldError problem={problem} field={`${base(i)}.op`} id={id('op')} />
              </span>
              {r.op !== 'exists' && r.op !== 'not_exists' && (
                <span>
                  <label for={id('value')}>Value</label>
                  <input
                    {...invalid(problem, `${base(i)}.value`, id('value'))}
                    value={r.value}
                    onInput={(e) => setRow(r.key, { value: e.currentTarget.value })}
                  />
                  <FieldError problem={problem} field={`${base(i)}.value`} id={id('value')} />
                </span>
              )}
              <button
                type="button"
                class="quiet small"
                aria-label={`Remove condition ${i + 1}`}
                onClick={() => setModel({ ...model, rows: model.rows.filter((x) => x.key !== r.key) })}
              >
                Remove
              </button>
            </li>
          );
        })}
        {model.surveys.map((r, j) => (
          <SurveyConditionRow
            key={r.key}
            row={r}
            n={model.rows.length + j + 1}
            base={base(model.rows.length + j)}
            surveys={surveys}
            problem={problem}
            onChange={(row) => setModel({ ...model, surveys: model.surveys.map((x) => (x.key === r.key ? row : x)) })}
            onRemove={() => setModel({ ...model, surveys: model.surveys.filter((x) => x.key !== r.key) })}
          />
        ))}
      </ol>
      {model.kept.length > 0 && (
        <div class="audience-kept">
          <p>Kept as written (events, nested groups: changed through the API):</p>
          <ul>
            {model.kept.map((k, i) => (
              <li key={i}>
                <code>{JSON.stringify(k)}</code>{' '}
                <button
                  type="button"
                  class="quiet small"
                  aria-label={`Remove kept rule ${i + 1}`}
                  onClick={() => setModel({ ...model, kept: model.kept.filter((_, j) => j !== i) })}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p>
        <button
          type="button"
          class="quiet small"
          onClick={() => {
            const a = attributes[0];
            const subject = a ? `attribute:${a.name}` : 'field:email';
            const type = a ? a.type : 'string';
            setModel({ ...model, rows: [...model.rows, { key: nextRowKey(), subject, op: OPS[type]![0]!, value: '', type }] });
          }}
        >
          Add a condition
        </button>{' '}
        <button
          type="button"
          class="quiet small"
          disabled={loaded && surveys.length === 0}
          title={loaded && surveys.length === 0 ? 'This app has no survey yet.' : undefined}
          onClick={() => {
            const row = {
              key: nextRowKey(),
              survey: surveys[0]?.id ?? '',
              question: '',
              rule: 'submitted' as const,
              min: '',
              max: '',
              options: [],
            };
            setModel({ ...model, surveys: [...model.surveys, fitted(row, surveys)] });
          }}
        >
          Add a survey condition
        </button>
      </p>
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

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
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
  const [days, setDays] = useState<number[]>(w?.days ?? [1, 2, 3, 4, 5]);
  const [from, setFrom] = useState(w?.from ?? '09:00');
  const [to, setTo] = useState(w?.to ?? '18:00');
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
          sendingWindow: windowOn ? { days, from, to } : null,
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
        <fieldset class="when-window">
          <legend>Sending window</legend>
          <span class="when-days" role="group" aria-label="Days">
            {DAYS.map((d, i) => (
              <label key={d} class="check">
                <input
                  type="checkbox"
                  checked={days.includes(i)}
                  onChange={(e) => setDays(e.currentTarget.checked ? [...days, i].sort() : days.filter((x) => x !== i))}
                />
                {d}
              </label>
            ))}
          </span>
          <FieldError problem={problem} field="sendingWindow.days" id="when-days" />
          <span>
            <label for="when-from">From</label>
            <input
              type="time"
              {...invalid(problem, 'sendingWindow.from', 'when-from')}
              value={from}
              onInput={(e) => setFrom(e.currentTarget.value)}
            />
            <FieldError problem={problem} field="sendingWindow.from" id="when-from" />
          </span>
          <span>
            <label for="when-to">Until</label>
            <input
              {...invalid(problem, 'sendingWindow.to', 'when-to')}
              value={to}
              placeholder="HH:MM (24:00 for midnight)"
              onInput={(e) => setTo(e.currentTarget.value)}
            />
            <FieldError problem={problem} field="sendingWindow.to" id="when-to" />
          </span>
        </fieldset>
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
