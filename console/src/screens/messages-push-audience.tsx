import { useEffect, useState } from 'preact/hooks';
import { request } from '../api/request';
import { PushAudienceChoicesDocument, type AttributeType, type SendAttributeCondition } from '../generated/graphql';
import { Exact, FieldError, invalid, type Problem } from './settings-common';

// What a push may go to besides everyone or one person: the people whose attributes hold every
// condition (1 to 10, each an attribute of the app and a value of its type; for a list, one item it
// holds), and the topics a push may name (those going by push). Read once as the form opens.

export const MAX_CONDITIONS = 10;

export interface Condition {
  name: string;
  value: string;
}

export interface AudienceChoices {
  attributes: { name: string; type: AttributeType }[];
  topics: { key: string; name: string }[];
}

/** The app's attributes, and its topics that go by `channel` (a push's: push; an email's: email). */
export function useAudienceChoices(modeId: string, channel: 'push' | 'email' = 'push'): AudienceChoices | undefined {
  const [choices, setChoices] = useState<AudienceChoices | undefined>();
  useEffect(() => {
    request(PushAudienceChoicesDocument, { appModeId: modeId })
      .then(({ attributeDefinitions, preferenceTopics }) =>
        setChoices({
          attributes: attributeDefinitions.edges.map((e) => e.node),
          topics: preferenceTopics.edges.map((e) => e.node).filter((t) => t.channels.includes(channel)),
        }),
      )
      .catch(() => setChoices({ attributes: [], topics: [] }));
  }, [modeId, channel]);
  return choices;
}

/** The conditions as the service takes them: a number or yes/no by the attribute's type, the rest as written. */
export function conditionsInput(conditions: Condition[], choices: AudienceChoices | undefined): SendAttributeCondition[] {
  return conditions.map(({ name, value }) => {
    const type = choices?.attributes.find((a) => a.name === name)?.type;
    const trimmed = value.trim();
    if (type === 'number' && trimmed !== '' && Number.isFinite(Number(trimmed))) return { name, value: Number(trimmed) };
    if (type === 'boolean' && (trimmed === 'true' || trimmed === 'false')) return { name, value: trimmed === 'true' };
    return { name, value };
  });
}

/** The words for a push's audience as kept: `plan = pro and beta = true`. */
export const attributesWords = (attributes: Record<string, unknown>) =>
  Object.entries(attributes)
    .map(([name, value]) => `${name} = ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' and ');

const HINTS: Partial<Record<AttributeType, string>> = {
  list: 'an item the list holds',
  date: 'a date, 2026-11-28',
  time: 'a time, 2026-11-28T09:00:00Z',
};

export function AttributeConditions(props: {
  conditions: Condition[];
  choices: AudienceChoices | undefined;
  problem: Problem | undefined;
  onChange(conditions: Condition[]): void;
}) {
  const { conditions, choices, problem } = props;
  const set = (i: number, change: Partial<Condition>) => props.onChange(conditions.map((c, j) => (j === i ? { ...c, ...change } : c)));
  if (choices && choices.attributes.length === 0)
    return <p class="quiet-text">This app has no attributes yet: people get them from your app or the server API.</p>;
  return (
    <fieldset class="push-conditions">
      <legend>People whose attributes hold every condition</legend>
      <Exact problem={problem} field="audience.attributes" />
      {conditions.map((c, i) => {
        const type = choices?.attributes.find((a) => a.name === c.name)?.type;
        return (
          <div class="push-condition" key={i} role="group" aria-label={`Condition ${i + 1}`}>
            <label>
              Attribute
              <select
                value={c.name}
                onChange={(e) => set(i, { name: e.currentTarget.value })}
                {...invalid(problem, `audience.attributes.${i}.name`, `push-c${i}-name`)}
              >
                <option value="">Choose…</option>
                {choices?.attributes.map((a) => (
                  <option key={a.name} value={a.name}>
                    {a.name} ({a.type})
                  </option>
                ))}
              </select>
            </label>
            <span aria-hidden="true">=</span>
            {type === 'boolean' ? (
              <label>
                Value
                <select
                  value={c.value}
                  onChange={(e) => set(i, { value: e.currentTarget.value })}
                  {...invalid(problem, `audience.attributes.${i}.value`, `push-c${i}-value`)}
                >
                  <option value="">Choose…</option>
                  <option value="true">true</option>
                  <option value="false">false</option>
                </select>
              </label>
            ) : (
              <label>
                Value{type && HINTS[type] ? ` (${HINTS[type]})` : ''}
                <input
                  required
                  inputMode={type === 'number' ? 'decimal' : undefined}
                  value={c.value}
                  onInput={(e) => set(i, { value: e.currentTarget.value })}
                  {...invalid(problem, `audience.attributes.${i}.value`, `push-c${i}-value`)}
                />
              </label>
            )}
            <button
              type="button"
              class="quiet small"
              aria-label={`Remove condition ${i + 1}`}
              disabled={conditions.length === 1}
              onClick={() => props.onChange(conditions.filter((_, j) => j !== i))}
            >
              Remove
            </button>
            <FieldError problem={problem} field={`audience.attributes.${i}.name`} id={`push-c${i}-name`} />
            <FieldError problem={problem} field={`audience.attributes.${i}.value`} id={`push-c${i}-value`} />
          </div>
        );
      })}
      <button
        type="button"
        class="quiet"
        disabled={conditions.length >= MAX_CONDITIONS}
        onClick={() => props.onChange([...conditions, { name: '', value: '' }])}
      >
        Add a condition
      </button>
    </fieldset>
  );
}
