import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../sdk/src/index.js';
import { word } from '../../../sdk/src/index.js';
import { walk, type PathAnswer } from '../../../src/domain/surveys/path.js';
import { Blocks, type Block } from '../app/blocks.js';
import { focusFirst } from '../app/focus.js';
import { refusal } from '../app/refusal.js';
import type { InAppContext } from '../context.js';
import { words } from '../words.js';

type InAppMessage = components['schemas']['InAppMessage'];
type Survey = components['schemas']['InAppSurvey'];
type Question = components['schemas']['SurveyQuestion'];
type Answer = components['schemas']['SurveyAnswer'];

const TYPES = ['rating', 'nps', 'single', 'multiple', 'dropdown', 'short_text', 'long_text'] as const;
const OTHER = 'other';
const STARS = ['☆', '★'];
const FACES = ['😞', '🙁', '😐', '🙂', '😀'];

/** Whether an answer answers its question (words beside Other need the option picked; a text, some words). */
const given = (a: Answer | undefined) =>
  a !== undefined && (a.number !== undefined || (a.options?.length ?? 0) > 0 || (a.text !== undefined && a.text.trim() !== ''));

/**
 * A survey: its steps one at a time, the path chosen by the answers as the guest routes walk it
 * (src/domain/surveys/path.ts), each step's answers kept by the service as the person goes on
 * (`POST /surveys/{id}/answers`), and the last step's submitted (`/submit`) before the thank-you
 * step; `seen` when drawn and `dismissed` by ✕ before the end. A question of a type this messenger
 * does not know is left out.
 */
export function SurveyMessage({ message, context, done }: { message: InAppMessage; context: InAppContext; done: () => void }) {
  const survey = message.survey as Survey;
  const [answers, setAnswers] = useState<Map<string, Answer>>(new Map());
  const [at, setAt] = useState(survey.steps[0]!.id);
  const [missing, setMissing] = useState<string | undefined>();
  const [failed, setFailed] = useState('');
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDivElement>(null);
  const step = survey.steps.find((s) => s.id === at)!;
  const questions = (step.questions ?? []).filter((q) => word(q.type, TYPES, 'unknown') !== 'unknown');

  useEffect(() => void context.client.receipt(message, 'seen'), [message.id]);
  useEffect(() => focusFirst(dialog.current?.querySelector('.survey-step') as HTMLElement | null), [at]);

  const set = (q: Question, a: Omit<Answer, 'question'> | undefined) => {
    const next = new Map(answers);
    if (a) next.set(q.id, { question: q.id, ...a });
    else next.delete(q.id);
    setAnswers(next);
    if (missing === q.id) setMissing(undefined);
  };
  const kept = (only: Map<string, Answer>) => {
    const path = walk(survey, only as ReadonlyMap<string, PathAnswer>);
    const on = new Set(path.steps.flatMap((id) => (survey.steps.find((s) => s.id === id)?.questions ?? []).map((q) => q.id)));
    return { path, list: [...only.values()].filter((a) => on.has(a.question) && given(a)) };
  };
  const body = (list: Answer[]) => ({ answers: list, variant: message.variant, ...(message.test ? { test: true } : {}) });

  const goOn = async () => {
    const unanswered = questions.find((q) => q.required !== false && !given(answers.get(q.id)));
    if (unanswered) {
      setMissing(unanswered.id);
      (
        dialog.current?.querySelector(
          `[data-question="${unanswered.id}"] input, [data-question="${unanswered.id}"] select, [data-question="${unanswered.id}"] textarea, [data-question="${unanswered.id}"] button`,
        ) as HTMLElement | null
      )?.focus();
      return;
    }
    const answered = new Map([...answers].filter(([, a]) => given(a)));
    const { path, list } = kept(answered);
    const following = path.steps[path.steps.indexOf(at) + 1];
    const last = following === undefined || survey.steps.find((s) => s.id === following)?.thankYou === true;
    setBusy(true);
    setFailed('');
    const params = { params: { path: { message_id: message.id } }, body: body(list) };
    const { error } = last
      ? await context.client.api.POST('/guest/v1/surveys/{message_id}/submit', params)
      : await context.client.api.POST('/guest/v1/surveys/{message_id}/answers', params);
    setBusy(false);
    if (error) return setFailed(refusal(error, words().unreachable));
    if (following === undefined) return done();
    setAt(following);
  };
  const dismiss = () => {
    if (!step.thankYou) void context.client.receipt(message, 'dismissed');
    done();
  };

  return (
    <div class="inapp-scrim">
      <div class="inapp-post survey" role="dialog" aria-modal="true" aria-label={words().messageFrom(context.brand.name)} ref={dialog}>
        <button type="button" class="inapp-close" aria-label={words().closeMessage} onClick={dismiss}>
          ✕
        </button>
        <form
          class="survey-step"
          key={at}
          tabIndex={-1}
          onSubmit={(e) => {
            e.preventDefault();
            if (step.thankYou) done();
            else void goOn();
          }}
        >
          {step.blocks && (
            <div class="inapp-words">
              <Blocks blocks={step.blocks as Block[]} />
            </div>
          )}
          {questions.map((q) => (
            <QuestionField key={q.id} q={q} answer={answers.get(q.id)} set={(a) => set(q, a)} missing={missing === q.id} />
          ))}
          {failed && (
            <p class="error" role="alert">
              {failed}
            </p>
          )}
          <div class="inapp-buttons">
            <button type="submit" class="main" disabled={busy}>
              {step.thankYou
                ? words().done
                : lastBeforeThanks(survey, at, answers)
                  ? (survey.submitLabel ?? words().surveySend)
                  : (survey.nextLabel ?? words().next)}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

/** Whether the step's answers lead to the thank-you step (its button submits). */
function lastBeforeThanks(survey: Survey, at: string, answers: Map<string, Answer>): boolean {
  const step = survey.steps.find((s) => s.id === at)!;
  // As if this step's questions were answered: the path as far as it goes with what is given.
  const assumed = new Map(answers);
  for (const q of step.questions ?? []) if (!assumed.has(q.id)) assumed.set(q.id, { question: q.id });
  const path = walk(survey, assumed as ReadonlyMap<string, PathAnswer>);
  const following = path.steps[path.steps.indexOf(at) + 1];
  return following === undefined || survey.steps.find((s) => s.id === following)?.thankYou === true;
}

function QuestionField(props: {
  q: Question;
  answer: Answer | undefined;
  set: (a: Omit<Answer, 'question'> | undefined) => void;
  missing: boolean;
}) {
  const { q, answer, set } = props;
  const id = `crm-q-${q.id}`;
  const hint = props.missing ? (
    <p class="error" id={`${id}-missing`} role="alert">
      {words().surveyAnswerThis}
    </p>
  ) : null;
  const described = props.missing ? `${id}-missing` : undefined;
  const type = word(q.type, TYPES, 'short_text');
  if (type === 'rating' || type === 'nps') {
    const min = type === 'nps' ? 0 : (q.min ?? 1);
    const max = type === 'nps' ? 10 : (q.max ?? 5);
    const display = type === 'nps' ? 'numbers' : word(q.display, ['numbers', 'stars', 'emoji'] as const, 'numbers');
    const points = Array.from({ length: max - min + 1 }, (_, i) => min + i);
    const face = (n: number) =>
      display === 'stars'
        ? STARS[answer?.number !== undefined && n <= answer.number ? 1 : 0]
        : display === 'emoji'
          ? FACES[Math.round(((n - min) / Math.max(1, max - min)) * 4)]
          : String(n);
    return (
      <fieldset class="survey-question" data-question={q.id} aria-describedby={described}>
        <legend>{q.title}</legend>
        {q.description && <p class="survey-hint">{q.description}</p>}
        <div class={`survey-scale ${display}`}>
          {points.map((n) => (
            <button
              key={n}
              type="button"
              aria-pressed={answer?.number === n}
              aria-label={words().surveyOutOf(n, max)}
              onClick={() => set({ number: n })}
            >
              {face(n)}
            </button>
          ))}
        </div>
        <div class="survey-ends" aria-hidden="true">
          <span>{q.lowLabel ?? (type === 'nps' ? words().surveyNotLikely : '')}</span>
          <span>{q.highLabel ?? (type === 'nps' ? words().surveyVeryLikely : '')}</span>
        </div>
        {hint}
      </fieldset>
    );
  }
  const options = q.options ?? [];
  const picked = answer?.options ?? [];
  const otherBox = picked.includes(OTHER) && (
    <input
      class="survey-other"
      aria-label={words().surveyOtherWords}
      value={answer?.other ?? ''}
      onInput={(e) => set({ options: picked, other: (e.target as HTMLInputElement).value || undefined })}
    />
  );
  if (type === 'single' || type === 'multiple') {
    const multiple = type === 'multiple';
    return (
      <fieldset class="survey-question" data-question={q.id} aria-describedby={described}>
        <legend>{q.title}</legend>
        {q.description && <p class="survey-hint">{q.description}</p>}
        <ul class="survey-options">
          {options.map((o) => (
            <li key={o.id}>
              <label>
                <input
                  type={multiple ? 'checkbox' : 'radio'}
                  name={id}
                  checked={picked.includes(o.id)}
                  onChange={(e) => {
                    const on = (e.target as HTMLInputElement).checked;
                    const next = multiple ? (on ? [...picked, o.id] : picked.filter((p) => p !== o.id)) : [o.id];
                    set(
                      next.length
                        ? { options: next, ...(next.includes(OTHER) && answer?.other ? { other: answer.other } : {}) }
                        : undefined,
                    );
                  }}
                />
                {o.label}
              </label>
            </li>
          ))}
        </ul>
        {otherBox}
        {hint}
      </fieldset>
    );
  }
  if (type === 'dropdown')
    return (
      <div class="survey-question" data-question={q.id}>
        <label for={id}>{q.title}</label>
        {q.description && <p class="survey-hint">{q.description}</p>}
        <select
          id={id}
          aria-describedby={described}
          onChange={(e) => set((e.target as HTMLSelectElement).value ? { options: [(e.target as HTMLSelectElement).value] } : undefined)}
        >
          <option value="">{words().surveyPick}</option>
          {options.map((o) => (
            <option key={o.id} value={o.id} selected={picked[0] === o.id}>
              {o.label}
            </option>
          ))}
        </select>
        {otherBox}
        {hint}
      </div>
    );
  const long = type === 'long_text';
  const Field = long ? 'textarea' : 'input';
  return (
    <div class="survey-question" data-question={q.id}>
      <label for={id}>{q.title}</label>
      {q.description && <p class="survey-hint">{q.description}</p>}
      <Field
        id={id}
        aria-describedby={described}
        placeholder={q.placeholder}
        value={answer?.text ?? ''}
        onInput={(e: Event) => {
          const text = (e.target as HTMLInputElement).value;
          set(text ? { text } : undefined);
        }}
      />
      {hint}
    </div>
  );
}
