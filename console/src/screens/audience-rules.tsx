import type { Ref } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { request } from '../api/request';
import { AudienceAttributesDocument } from '../generated/graphql';
import { fitted, SurveyConditionRow, useAudienceSurveys } from './messages-audience-survey';
import { FIELD_TYPES, nextRowKey, OPS, OP_WORDS, type Model, type Row } from './messages-content';
import { FieldError, invalid, type Problem } from './settings-common';

// An audience rule (src/domain/audiences: { all | any: [rules] }, a condition being
// { attribute | field, op, value } or { event, … }) as a list of conditions on the person's
// attributes and own fields and on their answers to a survey (messages-audience-survey.tsx), all or
// any of them; a rule the rows cannot hold (an event condition, a nested group) is kept as written,
// shown as JSON, and sent back unchanged. A message's audience and a workflow's branch condition and
// audience trigger are edited with it; a refusal naming a member under `at` is shown beside its row.

export function AudienceRules(props: {
  appModeId: string;
  model: Model;
  onChange(model: Model): void;
  problem: Problem | undefined;
  /** The rule's member in what is sent (`audience`, `definition.steps.2.condition`): refusals name members under it. */
  at: string;
  /** The start of the controls' ids (`aud`: the group's select is `aud-group`). */
  idPrefix?: string;
  /** The group's words ("Who sees it"). */
  groupLabel: string;
  /** The words of each choice of group. */
  groupWords?: { all: string; any: string };
  /** With no condition. */
  emptyWords?: string;
  /** The group's select (to focus it). */
  first?: Ref<HTMLSelectElement>;
}) {
  const { model, problem } = props;
  const setModel = props.onChange;
  const prefix = props.idPrefix ?? 'aud';
  const words = props.groupWords ?? { all: 'People who match all of these', any: 'People who match any of these' };
  const [attributes, setAttributes] = useState<{ name: string; type: string }[]>([]);
  useEffect(() => {
    request(AudienceAttributesDocument, { appModeId: props.appModeId })
      .then(({ attributeDefinitions }) => setAttributes(attributeDefinitions.edges.map((e) => e.node)))
      .catch(() => setAttributes([]));
  }, [props.appModeId]);
  const typeOf = (subject: string) =>
    subject.startsWith('field:')
      ? FIELD_TYPES[subject.slice(6)]!
      : (attributes.find((a) => `attribute:${a.name}` === subject)?.type ??
        model.rows.find((r) => r.subject === subject)?.type ??
        'string');
  const setRow = (key: number, patch: Partial<Row>) =>
    setModel({ ...model, rows: model.rows.map((r) => (r.key === key ? { ...r, ...patch } : r)) });
  const { surveys, loaded } = useAudienceSurveys(
    props.appModeId,
    model.surveys.map((r) => r.survey),
  );
  const base = (i: number) => `${props.at}.${model.group}.${i}`;

  return (
    <>
      <label for={`${prefix}-group`}>{props.groupLabel}</label>
      <select
        id={`${prefix}-group`}
        ref={props.first}
        value={model.group}
        onChange={(e) => setModel({ ...model, group: e.currentTarget.value as 'all' | 'any' })}
      >
        <option value="all">{words.all}</option>
        <option value="any">{words.any}</option>
      </select>
      {model.rows.length === 0 && model.surveys.length === 0 && model.kept.length === 0 && (
        <p class="quiet-text">{props.emptyWords ?? 'No condition: everyone.'}</p>
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
    </>
  );
}
