import { AudienceRules } from './audience-rules';
import { FieldSaid, invalid, Said, TextField, type Problem } from './messages-survey-fields';
import { TRIGGER_KINDS, TRIGGER_WORDS, type EditWorkflow, type TriggerKind } from './workflows-content';

// What starts a run for a person (the trigger: an event, an attribute changing, entering an
// audience, a date of theirs coming round), who may enter again (entry) and what ends a run early
// (exit: the goal event, leaving the audience). Refusals name `definition.trigger.event` and the like.

type Part = Pick<EditWorkflow, 'trigger' | 'again' | 'againAfterDays' | 'goalEvent' | 'leavesAudience'>;

export function TriggerFields(props: {
  edit: EditWorkflow;
  appModeId: string;
  problem: Problem | undefined;
  onChange(patch: Partial<Part>): void;
}) {
  const { edit, problem, onChange } = props;
  const t = edit.trigger;
  const setTrigger = (patch: Partial<EditWorkflow['trigger']>) => onChange({ trigger: { ...t, ...patch } });
  const at = 'definition.trigger';
  const known = TRIGGER_KINDS.includes(t.kind as TriggerKind);
  return (
    <>
      <fieldset class="message-screen workflow-trigger">
        <legend>Trigger</legend>
        <Said problem={problem} field={at} id="wf-trigger" />
        <span class="survey-field">
          <label for="wf-trigger-kind">A run starts when</label>
          <select
            {...invalid(problem, `${at}.kind`, 'wf-trigger-kind')}
            value={t.kind}
            onChange={(e) => setTrigger({ kind: e.currentTarget.value })}
          >
            {TRIGGER_KINDS.map((k) => (
              <option key={k} value={k}>
                {TRIGGER_WORDS[k]}
              </option>
            ))}
            {!known && <option value={t.kind}>{t.kind} (unknown)</option>}
          </select>
          <FieldSaid problem={problem} field={`${at}.kind`} id="wf-trigger-kind" />
        </span>
        {t.kind === 'event' && (
          <TextField
            id="wf-trigger-event"
            label="Event name"
            value={t.event}
            max={100}
            problem={problem}
            field={`${at}.event`}
            onInput={(event) => setTrigger({ event })}
          />
        )}
        {(t.kind === 'attribute_changed' || t.kind === 'date_reached') && (
          <TextField
            id="wf-trigger-attribute"
            label={t.kind === 'date_reached' ? 'Date attribute (a date the person has)' : 'Attribute'}
            value={t.attribute}
            max={100}
            problem={problem}
            field={`${at}.attribute`}
            onInput={(attribute) => setTrigger({ attribute })}
          />
        )}
        {t.kind === 'date_reached' && (
          <TextField
            id="wf-trigger-offset"
            label="Days after the date (-365 to 365; before it when negative)"
            value={t.offsetDays}
            max={5}
            problem={problem}
            field={`${at}.offsetDays`}
            onInput={(offsetDays) => setTrigger({ offsetDays })}
          />
        )}
        {t.kind === 'audience_entered' && (
          <div class="workflow-condition">
            <Said problem={problem} field={`${at}.audience`} id="wf-trigger-audience" />
            <AudienceRules
              appModeId={props.appModeId}
              model={t.audience}
              onChange={(audience) => setTrigger({ audience })}
              problem={problem}
              at={`${at}.audience`}
              idPrefix="wf-trigger-audience"
              groupLabel="The audience: people who match"
              groupWords={{ all: 'All of these', any: 'Any of these' }}
              emptyWords="No condition yet: add one."
            />
          </div>
        )}
      </fieldset>
      <fieldset class="message-screen workflow-entry">
        <legend>Entry</legend>
        <label class="check">
          <input type="radio" name="wf-entry" checked={!edit.again} onChange={() => onChange({ again: false })} /> Once per person, ever
        </label>
        <label class="check">
          <input type="radio" name="wf-entry" checked={edit.again} onChange={() => onChange({ again: true })} /> Again, once some days have
          passed since their last run began
        </label>
        {edit.again && (
          <TextField
            id="wf-entry-days"
            label="Days before they may enter again (1 to 3650)"
            value={edit.againAfterDays}
            max={4}
            problem={problem}
            field="definition.entry.againAfterDays"
            onInput={(againAfterDays) => onChange({ againAfterDays })}
          />
        )}
        <Said problem={problem} field="definition.entry" />
      </fieldset>
      <fieldset class="message-screen workflow-exit">
        <legend>Exit</legend>
        <TextField
          id="wf-exit-goal"
          label="Goal event (optional: a run ends, outcome goal, when the person does it)"
          value={edit.goalEvent}
          max={100}
          problem={problem}
          field="definition.exit.goalEvent"
          onInput={(goalEvent) => onChange({ goalEvent })}
        />
        {(t.kind === 'audience_entered' || edit.leavesAudience) && (
          <label class="check">
            <input
              type="checkbox"
              {...invalid(problem, 'definition.exit.leavesAudience', 'wf-exit-leaves')}
              checked={edit.leavesAudience}
              onChange={(e) => onChange({ leavesAudience: e.currentTarget.checked })}
            />
            A run ends when the person leaves the audience
          </label>
        )}
        <FieldSaid problem={problem} field="definition.exit.leavesAudience" id="wf-exit-leaves" />
        <Said problem={problem} field="definition.exit" />
      </fieldset>
    </>
  );
}
