import { useEffect, useRef, useState } from 'preact/hooks';
import { request } from '../api/request';
import { SurveyTextAnswersDocument, type SurveyTextAnswerRowFragment } from '../generated/graphql';
import { contactPath, navigate } from '../router';
import { pageOf, usePagedList } from '../ui/paged-list';
import { useMoreWhenSeen } from '../ui/row-keys';
import { fullTime } from '../ui/time';
import { MoreRow } from '../ui/list-status';

// The words people wrote to one question of a survey (`surveyTextAnswers`): a text question's
// answers, or the words beside Other of a choice; the most recently answered first, 20 to a page, the
// next read as the list's end comes into view; a search (asked once typing pauses) finds the text in
// them in any case. When the results change live, the rows held are read again (a response answered
// again moves to the top). Each links the person who wrote it.

const PAGE = 20;
/** The most rows read again at once when the results change. */
const MAX_REREAD = 100;
const TYPING_PAUSE_MS = 300;
/** The service's longest search. */
const MAX_SEARCH = 200;

type Row = SurveyTextAnswerRowFragment;

/** A page after the rows held (`more`), or alone; one row a person (a response holds one answer a question). */
const merge = (old: Row[], page: Row[], more: boolean) => {
  const byPerson = new Map((more ? old : []).map((r) => [r.contactId, r]));
  for (const r of page) byPerson.set(r.contactId, r);
  return [...byPerson.values()];
};

export function TextAnswers(props: {
  messageId: string;
  question: string;
  title: string;
  /** The words beside Other of a choice, not a text question's answers. */
  other: boolean;
  /** The survey has several variants: each answer says its own. */
  everyVariant: boolean;
  /** Counts the live results taken: a change reads the rows held again. */
  changes: number;
}) {
  const { messageId, question } = props;
  const [search, setSearch] = useState('');
  const [asked, setAsked] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setAsked(search.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [search]);
  const { rows, next, loading, error, reload, more, readings } = usePagedList<Row>({
    read: async (after, first = PAGE) =>
      pageOf((await request(SurveyTextAnswersDocument, { messageId, question, search: asked || null, first, after })).surveyTextAnswers),
    merge,
    by: [messageId, question, asked],
  });
  const held = useRef(rows);
  held.current = rows;
  const seen = useRef(props.changes);
  useEffect(() => {
    if (seen.current === props.changes) return;
    seen.current = props.changes;
    void reload(Math.min(MAX_REREAD, Math.max(PAGE, held.current.length)));
  }, [props.changes]);
  const end = useRef<HTMLLIElement>(null);
  useMoreWhenSeen(end, more, next !== null, rows, readings);

  const id = `survey-words-${question}`;
  const what = props.other ? `Words written beside “Other”` : 'Answers written';
  return (
    <section class="survey-words" aria-labelledby={id}>
      <h5 id={id}>
        {what} to “{props.title}”
      </h5>
      <p class="survey-words-search">
        <label for={`${id}-search`}>Search the answers</label>
        <input id={`${id}-search`} type="search" maxLength={MAX_SEARCH} value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </p>
      {props.everyVariant && <p class="quiet-text">From every variant.</p>}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {loading && rows.length === 0 ? (
        <p class="quiet-text">Loading…</p>
      ) : rows.length === 0 && !next ? (
        <p class="quiet-text">{asked ? `No answer holds “${asked}”.` : 'Nobody has written anything yet.'}</p>
      ) : (
        <ol class="survey-words-list" aria-label={`${what} to “${props.title}”`}>
          {rows.map((r) => (
            <li key={r.contactId}>
              <blockquote>{r.text}</blockquote>
              <p class="quiet-text">
                <a href={contactPath(r.contactId)} onClick={(e) => (e.preventDefault(), navigate(contactPath(r.contactId)))}>
                  The person
                </a>{' '}
                · {r.submitted ? 'submitted' : 'not submitted yet'} · {fullTime(r.answeredAt)}
                {props.everyVariant && <> · variant {r.variant}</>}
              </p>
            </li>
          ))}
          <MoreRow more={next !== null} end={end} />
        </ol>
      )}
    </section>
  );
}
