import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { request } from '../api/request';
import { ChangeWorkflowDocument, PublishWorkflowDocument, type WorkflowPageFragment } from '../generated/graphql';
import { when } from '../ui/time';
import { Said, TextField } from './messages-survey-fields';
import { problemOf, Reason, type Problem } from './settings-common';
import {
  fromEdit,
  KIND_WORDS,
  keepUnsaved,
  newStep,
  readUnsaved,
  renameKey,
  STEP_KINDS,
  toEdit,
  type EditStep,
  type EditWorkflow,
  type StepKind,
} from './workflows-content';
import { StepCard, stepName } from './workflows-step';
import { TriggerFields } from './workflows-trigger';
import './messages-survey.css';

// The step editor of a workflow's draft: its name, trigger, entry and exit, and its steps as an
// ordered list of cards (the first is where a run starts), each added of a kind, moved and removed.
// Save (or Ctrl/⌘-S) keeps the draft as written (changeWorkflow: never refused for what it says);
// Publish saves what is unsaved and publishes it as the next version (publishWorkflow). A refusal
// names each problem's member (`definition.steps.3.next`): its words are shown beside that field or
// at the top of the step it names, the first taking the focus, and all of them are listed above the
// form. Work not saved is kept in the tab (workflows-content.ts) until it is.

const MAX_STEPS = 200;
const MEMBER_WORDS: Record<string, string> = {
  key: 'key',
  kind: 'kind',
  seconds: 'wait',
  time: 'time of day',
  event: 'event',
  timeoutSeconds: 'time limit',
  condition: 'condition',
  channel: 'channel',
  messageId: 'message id',
  url: 'address',
  attribute: 'attribute',
  value: 'value',
  action: 'action',
  tag: 'tag',
  outcome: 'outcome',
  next: 'where it goes next',
  yes: 'where it goes when the condition holds',
  no: 'where it goes otherwise',
  timeout: 'where it goes when the time runs out',
};

export function WorkflowEditor(props: { w: WorkflowPageFragment; refused: string | undefined; onSaved(w: WorkflowPageFragment): void }) {
  const { w } = props;
  /** What the service holds, as a save sends it. */
  const [saved, setSaved] = useState(() => JSON.stringify({ name: w.name, definition: fromEdit(toEdit(w.draft)) }));
  /** Work left unsaved in this tab before, when it differs from what is saved. */
  const [restored] = useState(() => {
    const kept = readUnsaved(w.id);
    return kept && JSON.stringify({ name: kept.name, definition: kept.definition }) !== saved ? kept : undefined;
  });
  const [name, setName] = useState(restored?.name ?? w.name);
  const [edit, setEdit] = useState<EditWorkflow>(() => toEdit(restored ? restored.definition : w.draft));
  const [problem, setProblem] = useState<Problem | undefined>();
  /** The steps as the refused definition had them: a refusal's `steps.3` is the step with the fourth. */
  const [sentUids, setSentUids] = useState<string[]>([]);
  const [busy, setBusy] = useState<'save' | 'publish' | undefined>();
  /** What the refusal shown refused. */
  const [refusedAct, setRefusedAct] = useState<'save' | 'publish'>('save');
  const [status, setStatus] = useState(restored ? 'Your changes from before are shown: not saved yet.' : '');
  const [said, setSaid] = useState('');
  const [addKind, setAddKind] = useState<StepKind>('wait');
  const form = useRef<HTMLFormElement>(null);
  const focusNext = useRef<string | undefined>(undefined);

  const definition = useMemo(() => fromEdit(edit), [edit]);
  const current = JSON.stringify({ name, definition });
  const unsaved = current !== saved;
  useEffect(() => keepUnsaved(w.id, unsaved ? { name, definition } : undefined), [current, saved]);

  // After the render that made it: a new step's key, a moved step's button.
  useLayoutEffect(() => {
    if (!focusNext.current) return;
    const el = document.getElementById(focusNext.current);
    focusNext.current = undefined;
    if (el instanceof HTMLButtonElement && el.disabled) el.parentElement?.querySelector<HTMLElement>('button:not([disabled])')?.focus();
    else el?.focus();
  });
  // A refusal: the first field it marks (or a step's own words) takes the focus.
  useEffect(() => {
    if (problem && Object.keys(problem.fields).length)
      form.current?.querySelector<HTMLElement>('.workflow-body [aria-invalid="true"], .workflow-body .survey-said')?.focus();
  }, [problem]);

  const steps = edit.steps;
  const setSteps = (next: EditStep[]) => setEdit((old) => ({ ...old, steps: next }));
  const atOf = (s: EditStep) => {
    const i = sentUids.indexOf(s.uid);
    return i >= 0 ? `definition.steps.${i}` : `definition.steps.unsent-${s.uid}`;
  };

  /** Saves the draft as written; true once saved. */
  const save = async (): Promise<boolean> => {
    const sent = definition;
    try {
      const done = (await request(ChangeWorkflowDocument, { id: w.id, input: { name, definition: sent } })).changeWorkflow;
      setSaved(JSON.stringify({ name: done.name, definition: sent }));
      if (done.name !== name) setName(done.name);
      props.onSaved(done);
      return true;
    } catch (err) {
      setSentUids(steps.map((s) => s.uid));
      setRefusedAct('save');
      setProblem(problemOf(err));
      return false;
    }
  };
  const onSave = async (e?: Event) => {
    e?.preventDefault();
    if (busy || props.refused) return;
    setBusy('save');
    if (await save()) {
      setProblem(undefined);
      setStatus('Saved.');
    } else setStatus('');
    setBusy(undefined);
  };
  const onPublish = async () => {
    if (busy || props.refused) return;
    setBusy('publish');
    setStatus('');
    try {
      if (unsaved && !(await save())) return;
      setSentUids(steps.map((s) => s.uid));
      const done = (await request(PublishWorkflowDocument, { id: w.id })).publishWorkflow;
      setProblem(undefined);
      setStatus(`Published as version ${done.liveVersion}: new runs start on it.`);
      props.onSaved(done);
    } catch (err) {
      setRefusedAct('publish');
      setProblem(problemOf(err));
    } finally {
      setBusy(undefined);
    }
  };

  const moveStep = (i: number, by: -1 | 1) => {
    const next = [...steps];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    setSteps(next);
    focusNext.current = `wf-${steps[i]!.uid}-${by < 0 ? 'up' : 'down'}`;
    setSaid(`Step moved to place ${i + by + 1} of ${steps.length}${i + by === 0 ? ': a run starts there' : ''}.`);
  };
  const addStep = () => {
    const step = newStep(addKind, steps);
    setSteps([...steps, step]);
    focusNext.current = `wf-${step.uid}-key`;
    setSaid(`Step ${steps.length + 1} added: ${KIND_WORDS[addKind]}.`);
  };
  const removeStep = (i: number) => {
    setSteps(steps.filter((_, j) => j !== i));
    focusNext.current = 'wf-add-kind';
    setSaid(`Step ${i + 1} removed.`);
  };

  /** Each problem's place in words: the step as it is now, and its member. */
  const placeOf = (field: string) => {
    if (field === 'name') return 'Name';
    const step = /^definition\.steps\.(\d+)(?:\.(\w+))?/.exec(field);
    if (step) {
      const uid = sentUids[Number(step[1])];
      const n = steps.findIndex((s) => s.uid === uid);
      const where = n >= 0 ? stepName(steps[n]!, n) : `Step ${Number(step[1]) + 1}`;
      return step[2] ? `${where}, ${MEMBER_WORDS[step[2]] ?? step[2]}` : where;
    }
    if (field.startsWith('definition.trigger')) return 'Trigger';
    if (field.startsWith('definition.entry')) return 'Entry';
    if (field.startsWith('definition.exit')) return 'Exit';
    if (field === 'definition.steps') return 'Steps';
    return 'The workflow';
  };
  const problems = Object.entries(problem?.fields ?? {});

  return (
    <form
      class="message-editor workflow-editor"
      aria-label="The workflow"
      noValidate
      ref={form}
      onSubmit={onSave}
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && !e.altKey && e.code === 'KeyS') (e.preventDefault(), void onSave());
      }}
    >
      {problem && (
        <div class="error workflow-problems" role="alert">
          <p>
            {problems.length === 0
              ? problem.message
              : refusedAct === 'publish'
                ? `Not published: ${problems.length === 1 ? 'one problem' : `${problems.length} problems`}, each marked below.`
                : 'Not saved: see the fields marked below.'}
          </p>
          {problems.length > 0 && (
            <ul aria-label="Problems">
              {problems.map(([field, words]) => (
                <li key={field} data-field={field}>
                  <strong>{placeOf(field)}</strong>: {words}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {restored && unsaved && (
        <p class="quiet-text workflow-restored">
          Changes you had not saved are shown.{' '}
          <button
            type="button"
            class="quiet small"
            onClick={() => {
              const s = JSON.parse(saved) as { name: string; definition: unknown };
              setName(s.name);
              setEdit(toEdit(s.definition));
              setStatus('Back to the saved draft.');
            }}
          >
            Go back to the saved draft
          </button>
        </p>
      )}
      <div class="workflow-body">
        <TextField id="wf-name" label="Name" value={name} max={100} problem={problem} field="name" onInput={setName} />
        <Said problem={problem} field="definition" />
        <TriggerFields
          edit={edit}
          appModeId={w.appModeId}
          problem={problem}
          onChange={(patch) => setEdit((old) => ({ ...old, ...patch }))}
        />
        <h4 id="wf-steps-title">Steps</h4>
        <p class="quiet-text">
          A run starts at the first step and goes on by each step's ways on; every path ends at an end step. A loop must pass a wait.
        </p>
        <Said problem={problem} field="definition.steps" id="wf-steps" />
        {steps.length === 0 ? (
          <p class="quiet-text">No steps yet: add the first, where a run starts.</p>
        ) : (
          <ol class="workflow-steps" aria-labelledby="wf-steps-title">
            {steps.map((s, i) => (
              <li key={s.uid}>
                <StepCard
                  step={s}
                  n={i}
                  steps={steps}
                  at={atOf(s)}
                  problem={problem}
                  appModeId={w.appModeId}
                  onChange={(patch) => setSteps(steps.map((x) => (x.uid === s.uid ? { ...x, ...patch } : x)))}
                  onKey={(key) => setSteps(renameKey(steps, s.uid, key))}
                  onMove={(by) => moveStep(i, by)}
                  onRemove={() => removeStep(i)}
                />
              </li>
            ))}
          </ol>
        )}
        <div class="screen-row workflow-add">
          <span class="survey-field">
            <label for="wf-add-kind">Kind of the new step</label>
            <select id="wf-add-kind" value={addKind} onChange={(e) => setAddKind(e.currentTarget.value as StepKind)}>
              {STEP_KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_WORDS[k]}
                </option>
              ))}
            </select>
          </span>
          <button type="button" id="wf-add-step" disabled={steps.length >= MAX_STEPS} onClick={addStep}>
            Add the step
          </button>
        </div>
      </div>
      <p class="visually-hidden" role="status">
        {said}
      </p>
      <div class="actions">
        <button type="submit" disabled={!!busy || !!props.refused}>
          Save
        </button>
        <button type="button" id="wf-publish" disabled={!!busy || !!props.refused} onClick={() => void onPublish()}>
          Publish
        </button>
        <span role="status" class="quiet-text">
          {busy === 'save'
            ? 'Saving…'
            : busy === 'publish'
              ? 'Publishing…'
              : unsaved
                ? 'Changes not saved yet.'
                : status || `Draft saved ${when(w.updatedAt)}.`}
        </span>
      </div>
      <Reason why={props.refused} />
    </form>
  );
}
