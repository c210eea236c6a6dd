import type { SendAudienceInput } from '../generated/graphql';
import { AttributeConditions, conditionsInput, type AudienceChoices, type Condition } from './messages-push-audience';
import { Exact, FieldError, invalid, type Problem } from './settings-common';

// Who a push or an email goes to (SendAudienceInput): one person by user id, the people whose
// attributes hold every condition, or everyone. The form that holds it asks before it sends to many.
// A refusal naming `audience` (or a condition's `audience.attributes.0.value`) is shown beside it.

export type AudienceKind = 'one' | 'attributes' | 'everyone';

export interface AudienceChoice {
  to: AudienceKind;
  externalId: string;
  conditions: Condition[];
}

export const FIRST_AUDIENCE: AudienceChoice = { to: 'one', externalId: '', conditions: [{ name: '', value: '' }] };

/** The choice as the service takes it. */
export function audienceInput(a: AudienceChoice, choices: AudienceChoices | undefined): SendAudienceInput {
  if (a.to === 'everyone') return { everyone: true };
  if (a.to === 'attributes') return { attributes: conditionsInput(a.conditions, choices) };
  return { externalId: a.externalId.trim() };
}

export function SendAudiencePicker(props: {
  /** The radio group's name, and the start of its fields' ids. */
  name: string;
  value: AudienceChoice;
  choices: AudienceChoices | undefined;
  problem: Problem | undefined;
  onChange(a: AudienceChoice): void;
}) {
  const { value: a, problem, name } = props;
  const set = (patch: Partial<AudienceChoice>) => props.onChange({ ...a, ...patch });
  const kinds: [AudienceKind, string][] = [
    ['one', 'One person, by user id'],
    ['attributes', 'People by attributes'],
    ['everyone', 'Everyone'],
  ];
  return (
    <>
      <fieldset>
        <legend>To</legend>
        {kinds.map(([kind, words]) => (
          <label class="inline" key={kind}>
            <input type="radio" name={name} checked={a.to === kind} onChange={() => set({ to: kind })} /> {words}
          </label>
        ))}
      </fieldset>
      {a.to === 'one' && (
        <label>
          User id
          <input
            required
            value={a.externalId}
            onInput={(e) => set({ externalId: e.currentTarget.value })}
            {...invalid(problem, 'audience', `${name}-user`)}
          />
        </label>
      )}
      {a.to === 'attributes' && (
        <AttributeConditions
          conditions={a.conditions}
          choices={props.choices}
          problem={problem}
          onChange={(conditions) => set({ conditions })}
        />
      )}
      {a.to === 'attributes' ? (
        <Exact problem={problem} field="audience" />
      ) : (
        <FieldError problem={problem} field="audience" id={`${name}-user`} />
      )}
    </>
  );
}
