import { useEffect, useState } from 'preact/hooks';
import { request } from '../api/request';
import { AudienceSurveyDocument, AudienceSurveysDocument, type AudienceSurveysQuery } from '../generated/graphql';
import type { SurveyRow, SurveyRule } from './messages-content';
import { surveyQuestions, type QuestionChoice } from './messages-survey-content';
import { FieldError, fieldError, invalid, type Problem } from './settings-common';

// An audience condition on a person's answers to a survey (src/domain/audiences/survey-rule.ts), as
// a row of the audience editor: the survey, the survey itself or one of its questions, and what the
// person did: answered (or did not), submitted (or did not), answered a rating or NPS question within
// a range of its scale, or picked any of a choice's options. The questions are those of every
// variant of the survey, read with the service's own reading (questionShapes: the widest scale, every
// option), so the row offers only what the service takes. The app-mode's surveys are listed from its
// messages (up to MAX_PAGES pages of 200, newest first: names only); the questions of a survey are
// read when a row first names it (one not listed is read the same way).

const MAX_PAGES = 5;

export interface SurveyChoice {
  id: string;
  name: string;
  questions: QuestionChoice[];
}

/** The rules a row may ask, by what it names: the survey itself, or a question of its type. */
export function rulesFor(q: QuestionChoice | undefined, named: boolean): [SurveyRule, string][] {
  if (!named)
    return [
      ['submitted', 'submitted it'],
      ['not_submitted', 'did not submit it'],
      ['answered', 'answered any of it'],
      ['not_answered', 'answered none of it'],
    ];
  return [
    ['answered', 'answered it'],
    ['not_answered', 'did not answer it'],
    ...(q?.scale ? [['range', 'answered within a range'] as [SurveyRule, string]] : []),
    ...(q?.options ? [['options', 'picked any of'] as [SurveyRule, string]] : []),
  ];
}

/**
 * The app-mode's surveys (listed once as the editor opens) and the questions of those the rows name
 * (each read once, when first named): a survey a row names that is not listed is read too.
 */
export function useAudienceSurveys(appModeId: string, named: string[]) {
  const [listed, setListed] = useState<{ id: string; name: string }[] | undefined>();
  const [read, setRead] = useState<Record<string, SurveyChoice | null>>({});
  useEffect(() => {
    let gone = false;
    (async () => {
      const found: { id: string; name: string }[] = [];
      let after: string | null = null;
      for (let i = 0; i < MAX_PAGES; i++) {
        const { inAppMessages: page }: AudienceSurveysQuery = await request(AudienceSurveysDocument, { appModeId, after });
        found.push(...page.edges.map((e) => e.node).filter((m) => m.kind === 'survey'));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor ?? null;
      }
      if (!gone) setListed(found);
    })().catch(() => !gone && setListed([]));
    return () => void (gone = true);
  }, [appModeId]);
  const unread = [...new Set(named)].filter((id) => id && !(id in read));
  useEffect(() => {
    if (!unread.length) return;
    setRead((old) => ({ ...old, ...Object.fromEntries(unread.map((id) => [id, null])) }));
    for (const id of unread) void readSurvey(id).then((s) => s && setRead((old) => ({ ...old, [id]: s })));
  }, [unread.join(' ')]);
  const surveys: SurveyChoice[] = (listed ?? []).map((s) => read[s.id] ?? { ...s, questions: [] });
  for (const s of Object.values(read)) if (s && !surveys.some((x) => x.id === s.id)) surveys.push(s);
  return { surveys, loaded: listed !== undefined };
}

async function readSurvey(id: string): Promise<SurveyChoice | null> {
  try {
    const { inAppMessage: m } = await request(AudienceSurveyDocument, { id });
    return m.kind === 'survey' ? { id: m.id, name: m.name, questions: surveyQuestions(m.variants.map((v) => v.content)) } : null;
  } catch {
    return null;
  }
}

/** A row with what the chosen survey and question allow: the first rule when the one held is not offered. */
export function fitted(row: SurveyRow, surveys: SurveyChoice[]): SurveyRow {
  const q = surveys.find((s) => s.id === row.survey)?.questions.find((x) => x.id === row.question);
  const rules = rulesFor(q, row.question !== '').map(([r]) => r);
  const rule = rules.includes(row.rule) ? row.rule : rules[0]!;
  const scale = q?.scale;
  return {
    ...row,
    rule,
    min: rule === 'range' && scale && row.min === '' ? String(scale.min) : row.min,
    max: rule === 'range' && scale && row.max === '' ? String(scale.max) : row.max,
    options: rule === 'options' ? row.options.filter((o) => q?.options?.some((x) => x.id === o)) : row.options,
  };
}

export function SurveyConditionRow(props: {
  row: SurveyRow;
  /** The condition's number among all the conditions shown. */
  n: number;
  /** Its member in the rule sent (`audience.all.3`): a refusal names it. */
  base: string;
  surveys: SurveyChoice[];
  problem: Problem | undefined;
  onChange(row: SurveyRow): void;
  onRemove(): void;
}) {
  const { row: r, n, base, problem, surveys } = props;
  const id = (f: string) => `aud-s${r.key}-${f}`;
  const set = (patch: Partial<SurveyRow>) => props.onChange(fitted({ ...r, ...patch }, surveys));
  const survey = surveys.find((s) => s.id === r.survey);
  const q = survey?.questions.find((x) => x.id === r.question);
  const rules = rulesFor(q, r.question !== '');
  /** A refusal of the condition as a whole (`audience.all.3`, not a member of it): beside the rule. */
  const whole = problem?.fields[base] ? { 'aria-invalid': true as const, 'aria-describedby': id('rule-error') } : {};
  /** A range refused: both ends described by its words. */
  const rangeBad = fieldError(problem, `${base}.range`) ? { 'aria-invalid': true as const, 'aria-describedby': id('range-error') } : {};
  const optionsBad = !!fieldError(problem, `${base}.options`);
  const scale = q?.scale ? Array.from({ length: q.scale.max - q.scale.min + 1 }, (_, i) => String(q.scale!.min + i)) : [];
  return (
    <li class="audience-survey">
      <div class="audience-survey-fields" role="group" aria-label={`Condition ${n}: a survey's answers`}>
        <span>
          <label for={id('survey')}>Condition {n}: survey</label>
          <select
            {...invalid(problem, `${base}.survey`, id('survey'))}
            value={r.survey}
            onChange={(e) => set({ survey: e.currentTarget.value, question: '', options: [], min: '', max: '' })}
          >
            {!survey && <option value={r.survey}>{r.survey || 'Choose…'}</option>}
            {surveys.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          <FieldError problem={problem} field={`${base}.survey`} id={id('survey')} />
        </span>
        <span>
          <label for={id('question')}>Question</label>
          <select
            {...invalid(problem, `${base}.question`, id('question'))}
            value={r.question}
            onChange={(e) => set({ question: e.currentTarget.value, options: [], min: '', max: '' })}
          >
            <option value="">The survey itself</option>
            {survey?.questions.map((x) => (
              <option key={x.id} value={x.id}>
                {x.title} ({x.id})
              </option>
            ))}
            {r.question && !q && <option value={r.question}>{r.question}</option>}
          </select>
          <FieldError problem={problem} field={`${base}.question`} id={id('question')} />
        </span>
        <span>
          <label for={id('rule')}>The person</label>
          <select id={id('rule')} {...whole} value={r.rule} onChange={(e) => set({ rule: e.currentTarget.value as SurveyRule })}>
            {rules.map(([rule, words]) => (
              <option key={rule} value={rule}>
                {words}
              </option>
            ))}
            {!rules.some(([rule]) => rule === r.rule) && <option value={r.rule}>{r.rule}</option>}
          </select>
          {problem?.fields[base] && (
            <p class="field-error" id={id('rule-error')}>
              {problem.fields[base]}
            </p>
          )}
        </span>
        {r.rule === 'range' && (
          <span class="audience-survey-range">
            <label for={id('min')}>From</label>
            <select id={id('min')} {...rangeBad} value={r.min} onChange={(e) => set({ min: e.currentTarget.value })}>
              {scale.map((v) => (
                <option key={v}>{v}</option>
              ))}
              {!scale.includes(r.min) && <option value={r.min}>{r.min}</option>}
            </select>
            <label for={id('max')}>to</label>
            <select id={id('max')} {...rangeBad} value={r.max} onChange={(e) => set({ max: e.currentTarget.value })}>
              {scale.map((v) => (
                <option key={v}>{v}</option>
              ))}
              {!scale.includes(r.max) && <option value={r.max}>{r.max}</option>}
            </select>
            <FieldError problem={problem} field={`${base}.range`} id={id('range')} />
          </span>
        )}
        {r.rule === 'options' && (
          <fieldset class="audience-survey-options" id={id('options')} aria-describedby={optionsBad ? id('options-error') : undefined}>
            <legend>Options (any of them)</legend>
            {(q?.options ?? r.options.map((o) => ({ id: o, label: o }))).map((o) => (
              <label key={o.id} class="check">
                <input
                  type="checkbox"
                  aria-invalid={optionsBad || undefined}
                  checked={r.options.includes(o.id)}
                  onChange={(e) => set({ options: e.currentTarget.checked ? [...r.options, o.id] : r.options.filter((x) => x !== o.id) })}
                />
                {o.label}
              </label>
            ))}
            <FieldError problem={problem} field={`${base}.options`} id={id('options')} />
          </fieldset>
        )}
        <button type="button" class="quiet small" aria-label={`Remove condition ${n}`} onClick={props.onRemove}>
          Remove
        </button>
      </div>
    </li>
  );
}
