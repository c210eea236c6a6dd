import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { live } from '../api/live';
import { messageOf, request } from '../api/request';
import { actionCommands } from '../commands';
import {
  ExportSurveyResponsesDocument,
  InAppMessageDocument,
  SurveyResultsDocument,
  SurveyResultsLiveDocument,
  type InAppMessagePageFragment,
  type SurveyQuestionResultsRowFragment,
  type SurveyVariantResultsRowFragment,
} from '../generated/graphql';
import { messagesPath, navigate } from '../router';
import { Distribution, NpsScore, percent } from './messages-survey-bars';
import { TYPE_NAMES, otherOption, type QuestionType } from './messages-survey-content';
import { TextAnswers } from './messages-survey-text';
import './messages-survey.css';

// A survey's results (`/console/messages/<id>/results`, beside the list), live for as long as the
// screen is open (`surveyResultsChanged`: the whole results again after people answer or submit):
// per variant how many were shown, started and completed it; per question its views on the paths
// taken, exits, drop-off (exits over the question's own views), how many answered, its answers as
// bars with their numbers, for NPS the score with its three groups, and the words people wrote (a
// text question's, Other's beside a choice) a page at a time, searchable. "Download CSV" asks for a
// signed address of the responses' CSV and downloads the file from it.

type Variant = SurveyVariantResultsRowFragment;
type Question = SurveyQuestionResultsRowFragment;

/**
 * A survey's results, live: the subscription's first event holds them as they are, each later one
 * holds them again after people answered (replacing what is shown), resumed from the last version
 * after a lost connection. `reload` reads them once more ("Read again"); whatever comes last wins:
 * a reading's answer is dropped when a newer reading began or an event came since. `changes` counts
 * the results taken, so what is read beside them (the text answers) can be read again.
 */
export function useSurveyResults(messageId: string) {
  const [results, setResults] = useState<Variant[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [readAt, setReadAt] = useState<Date | undefined>();
  const [changes, setChanges] = useState(0);
  const latest = useRef(0);
  const version = useRef<string | null>(null);
  const take = (r: Variant[]) => {
    setResults(r);
    setReadAt(new Date());
    setError(undefined);
    setChanges((n) => n + 1);
  };
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    try {
      const { surveyResults } = await request(SurveyResultsDocument, { messageId });
      if (mine === latest.current) take(surveyResults);
    } catch (err) {
      if (mine === latest.current) setError(messageOf(err));
    }
  }, [messageId]);
  useEffect(() => {
    version.current = null;
    return live(
      SurveyResultsLiveDocument,
      () => ({ messageId, after: version.current }),
      ({ surveyResultsChanged: e }) => {
        version.current = e.version;
        ++latest.current;
        take(e.results);
      },
    );
  }, [messageId]);
  return { results, error, readAt, changes, reload };
}

/** Asks for the CSV's signed address and downloads the file from it (the address is the credential: never kept). */
function useCsvDownload(messageId: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const download = useCallback(async () => {
    setBusy(true);
    try {
      const { exportSurveyResponses } = await request(ExportSurveyResponsesDocument, { messageId });
      const a = document.createElement('a');
      a.href = exportSurveyResponses.url;
      a.download = `survey-${messageId}.csv`;
      document.body.append(a);
      a.click();
      a.remove();
      setError(undefined);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }, [messageId]);
  return { busy, error, download };
}

type Content = { steps?: { questions?: { id: string; display?: string; options?: { id: string; label: string }[] }[] }[] };

/** The question as a variant asks it. */
function askedIn(m: InAppMessagePageFragment | undefined, variant: string, question: string) {
  const content = (m?.variants.find((v) => v.key === variant)?.content ?? {}) as Content;
  return (content.steps ?? []).flatMap((s) => s.questions ?? []).find((x) => x.id === question);
}

/** A value of a question's distribution in words: an option's label, a number of a rating's scale. */
function labeller(m: InAppMessagePageFragment | undefined, variant: string, q: Question): (value: string) => string {
  const asked = askedIn(m, variant, q.question);
  const options = new Map((asked?.options ?? []).map((o) => [o.id, o.label]));
  return (value) => {
    if (options.has(value)) return options.get(value)!;
    if (asked?.display === 'stars') return `${value} star${value === '1' ? '' : 's'}`;
    return value;
  };
}

export function SurveyResultsPage({ id }: { id: string }) {
  const { results, error, readAt, changes, reload } = useSurveyResults(id);
  const csv = useCsvDownload(id);
  const [m, setM] = useState<InAppMessagePageFragment | undefined>();
  const [missing, setMissing] = useState<string | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    request(InAppMessageDocument, { id })
      .then(({ inAppMessage }) => setM(inAppMessage))
      .catch((err) => setMissing(messageOf(err)));
  }, [id]);
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    actionCommands.set([
      { id: 'survey-results-reload', label: 'Survey results: Read again', run: () => void reload() },
      { id: 'survey-results-csv', label: 'Survey results: Download CSV', run: () => void csv.download() },
      { id: 'survey-results-back', label: 'Survey results: Back to the survey', run: () => navigate(messagesPath(id)) },
    ]);
    return () => actionCommands.set([]);
  }, [id, reload, csv.download]);
  // A question's words are listed once, under the first variant that asks it (the list holds every variant's).
  const listed = new Set<string>();
  const wordsUnder = (v: Variant) =>
    new Set(
      v.questions.filter((q) => !listed.has(q.question) && takesWords(m, v.variant, q)).map((q) => (listed.add(q.question), q.question)),
    );

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
          <button type="button" class="small" disabled={csv.busy} onClick={() => void csv.download()}>
            Download CSV
          </button>
          <span role="status" class="quiet-text">
            {csv.busy ? 'Preparing the CSV…' : readAt ? `Live: updated at ${readAt.toLocaleTimeString()}` : 'Reading…'}
          </span>
        </p>
        {(error ?? csv.error ?? missing) && (
          <p class="error" role="alert">
            {error ?? csv.error ?? missing}
          </p>
        )}
      </header>
      <p class="quiet-text">
        Test copies are not counted. Drop-off is the share of the people who reached a question and left the survey there, unanswered. The
        results follow as people answer. The CSV holds one row per response, no person named.
      </p>
      {results?.length === 0 && <p>No variant has results yet.</p>}
      {results?.map((v) => (
        <VariantResults key={v.variant} v={v} only={results.length === 1} m={m} words={wordsUnder(v)} messageId={id} changes={changes} />
      ))}
    </section>
  );
}

/** Whether people write words to the question: a text question, or a choice offering Other. */
function takesWords(m: InAppMessagePageFragment | undefined, variant: string, q: Question): boolean {
  if (q.type === 'short_text' || q.type === 'long_text') return true;
  return !!askedIn(m, variant, q.question)?.options?.some((o) => o.id === otherOption);
}

function VariantResults(props: {
  v: Variant;
  only: boolean;
  m: InAppMessagePageFragment | undefined;
  /** The questions whose words are listed under this variant. */
  words: Set<string>;
  messageId: string;
  changes: number;
}) {
  const { v, only, m } = props;
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
            <QuestionResults q={q} id={`${vid}-${q.question}`} label={labeller(m, v.variant, q)}>
              {props.words.has(q.question) && (
                <TextAnswers
                  messageId={props.messageId}
                  question={q.question}
                  title={q.title}
                  other={q.type !== 'short_text' && q.type !== 'long_text'}
                  everyVariant={!only}
                  changes={props.changes}
                />
              )}
            </QuestionResults>
          </li>
        ))}
      </ol>
    </section>
  );
}

function QuestionResults({
  q,
  id,
  label,
  children,
}: {
  q: Question;
  id: string;
  label(value: string): string;
  children?: ComponentChildren;
}) {
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
      {!text && q.distribution.length > 0 && <Distribution q={q} label={label} />}
      {children}
    </section>
  );
}
