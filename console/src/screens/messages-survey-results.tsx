import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import { actionCommands } from '../commands';
import {
  InAppMessageDocument,
  SurveyResultsDocument,
  type InAppMessagePageFragment,
  type SurveyQuestionResultsRowFragment,
  type SurveyVariantResultsRowFragment,
} from '../generated/graphql';
import { messagesPath, navigate } from '../router';
import { Distribution, NpsScore, percent } from './messages-survey-bars';
import { TYPE_NAMES, type QuestionType } from './messages-survey-content';
import './messages-survey.css';

// A survey's results (`/console/messages/<id>/results`, beside the list; fetched when first
// opened): per variant how many were shown, started and completed it; per question its views on the
// paths taken, exits, drop-off (exits over the question's own views), how many answered, its answers
// as bars with their numbers, and for NPS the score with its three groups.

type Variant = SurveyVariantResultsRowFragment;
type Question = SurveyQuestionResultsRowFragment;

/**
 * A survey's results, and `reload`: the one function that reads them (again). Whatever learns that
 * they changed (the "Read again" button today; a live subscription of results) calls it; an answer
 * that comes after a later reading began is dropped, so the newest reading wins.
 */
export function useSurveyResults(messageId: string) {
  const [results, setResults] = useState<Variant[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [readAt, setReadAt] = useState<Date | undefined>();
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    try {
      const { surveyResults } = await request(SurveyResultsDocument, { messageId });
      if (mine !== latest.current) return;
      setResults(surveyResults);
      setReadAt(new Date());
      setError(undefined);
    } catch (err) {
      if (mine === latest.current) setError(messageOf(err));
    }
  }, [messageId]);
  useEffect(() => void reload(), [reload]);
  return { results, error, readAt, reload };
}

type Content = { steps?: { questions?: { id: string; display?: string; options?: { id: string; label: string }[] }[] }[] };

/** A value of a question's distribution in words: an option's label, a number of a rating's scale. */
function labeller(m: InAppMessagePageFragment | undefined, variant: string, q: Question): (value: string) => string {
  const content = (m?.variants.find((v) => v.key === variant)?.content ?? {}) as Content;
  const asked = (content.steps ?? []).flatMap((s) => s.questions ?? []).find((x) => x.id === q.question);
  const options = new Map((asked?.options ?? []).map((o) => [o.id, o.label]));
  return (value) => {
    if (options.has(value)) return options.get(value)!;
    if (asked?.display === 'stars') return `${value} star${value === '1' ? '' : 's'}`;
    return value;
  };
}

export function SurveyResultsPage({ id }: { id: string }) {
  const { results, error, readAt, reload } = useSurveyResults(id);
  const [m, setM] = useState<InAppMessagePageFragment | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    request(InAppMessageDocument, { id })
      .then(({ inAppMessage }) => setM(inAppMessage))
      .catch(() => undefined);
  }, [id]);
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    actionCommands.set([
      { id: 'survey-results-reload', label: 'Survey results: Read again', run: () => void reload() },
      { id: 'survey-results-back', label: 'Survey results: Back to the survey', run: () => navigate(messagesPath(id)) },
    ]);
    return () => actionCommands.set([]);
  }, [id, reload]);

  return (
    <section class="conversation-pane message-page survey-results" aria-labelledby="survey-results-title">
      <header class="message-head">
        <h2 id="survey-results-title" tabIndex={-1} ref={heading}>
          Results{m ? `: ${m.name}` : ''}
        </h2>
        <p class="actions">
          <a href={messagesPath(id)} onClick={(e) => (e.preventDefault(), navigate(messagesPath(id)))}>
            Back to the survey
          </a>
          <button type="button" class="small" onClick={() => void reload()}>
            Read again
          </button>
          <span role="status" class="quiet-text">
            {readAt ? `Read at ${readAt.toLocaleTimeString()}` : 'Reading…'}
          </span>
        </p>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </header>
      <p class="quiet-text">
        Test copies are not counted. Drop-off is the share of the people who reached a question and left the survey there, unanswered.
      </p>
      {results?.length === 0 && <p>No variant has results yet.</p>}
      {results?.map((v) => (
        <VariantResults key={v.variant} v={v} only={results.length === 1} m={m} />
      ))}
    </section>
  );
}

function VariantResults({ v, only, m }: { v: Variant; only: boolean; m: InAppMessagePageFragment | undefined }) {
  const vid = `survey-v-${v.variant}`;
  return (
    <section class="survey-variant" aria-labelledby={vid}>
      <h3 id={vid}>{only ? 'Everyone shown it' : `Variant ${v.variant}`}</h3>
      <dl class="message-stats">
        <div>
          <dt>Shown</dt>
          <dd data-stat="shown">{v.shown}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd data-stat="started">
            {v.started} <small>({percent(v.started, v.shown)})</small>
          </dd>
        </div>
        <div>
          <dt>Completed</dt>
          <dd data-stat="completed">
            {v.completed} <small>({percent(v.completed, v.shown)})</small>
          </dd>
        </div>
      </dl>
      <ol class="survey-result-questions">
        {v.questions.map((q) => (
          <li key={q.question}>
            <QuestionResults q={q} id={`${vid}-${q.question}`} label={labeller(m, v.variant, q)} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function QuestionResults({ q, id, label }: { q: Question; id: string; label(value: string): string }) {
  const text = q.type === 'short_text' || q.type === 'long_text';
  return (
    <section class="survey-result" aria-labelledby={id}>
      <h4 id={id}>{q.title}</h4>
      <p class="quiet-text">
        {TYPE_NAMES[q.type as QuestionType] ?? q.type} · {q.question}
      </p>
      <dl class="survey-result-counts">
        <div>
          <dt>Views</dt>
          <dd>{q.views}</dd>
        </div>
        <div>
          <dt>Answered</dt>
          <dd>{q.answered}</dd>
        </div>
        <div>
          <dt>Exits</dt>
          <dd>{q.exits}</dd>
        </div>
        <div>
          <dt>Drop-off</dt>
          <dd>{q.dropOff === null ? 'no views' : `${Math.round(q.dropOff * 1000) / 10}%`}</dd>
        </div>
      </dl>
      {q.nps && <NpsScore nps={q.nps} id={id} />}
      {text ? (
        <p class="quiet-text">The words people wrote are not shown here yet.</p>
      ) : (
        q.distribution.length > 0 && <Distribution q={q} label={label} />
      )}
    </section>
  );
}
